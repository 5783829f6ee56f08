// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfoliofs [-f] [-o OPTIONS] [--trace FILE] BACKING_DIR MOUNTPOINT
 * execfoliofs --report [REPORT OPTIONS] TRACE   (runs execfolio report)
 *
 * Option parsing, checks that fail before anything is mounted, session
 * setup, and the multi-threaded loop. Exit status: 0 after fusermount3 -u
 * or SIGTERM/SIGINT/SIGHUP, 1 on failure, 2 on a usage error.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "execfoliofs.h"
#include "frontend.h"
#include "touch_recorder.h"

const char *progname = "execfoliofs";
struct efs_fs efs;

struct efs_config {
	char *exec_folio_size;
	char *exec_folio_scope;
	char *trace;
	double timeout;
	char *backing;
	const char *mountpoint; /* as given, for check_mountpoint() */
	int nonopts;
};

#define EFS_OPT(t, p)                                \
	{                                            \
		t, offsetof(struct efs_config, p), 1 \
	}

static const struct fuse_opt efs_opts[] = {
	EFS_OPT("exec_folio_size=%s", exec_folio_size),
	EFS_OPT("exec_folio_scope=%s", exec_folio_scope),
	EFS_OPT("trace=%s", trace),
	EFS_OPT("timeout=%lf", timeout),
	/*
	 * mount(8) passes fstab's relatime on; libfuse 3.14 does not know it,
	 * and it is what the kernel does for a new mount anyway.
	 */
	FUSE_OPT_KEY("relatime", FUSE_OPT_KEY_DISCARD),
	FUSE_OPT_END,
};

static void usage(void)
{
	printf("usage: execfoliofs [-f] [-d] [-o OPTIONS] [--trace FILE] BACKING_DIR MOUNTPOINT\n"
	       "       execfoliofs --report [REPORT OPTIONS] TRACE\n"
	       "                             (execfolio report: see execfolio(1))\n"
	       "\n"
	       "execfoliofs options:\n"
	       "    -o exec_folio_size=SIZE  policy for executable files\n"
	       "    -o exec_folio_scope=exec|all\n"
	       "                             the files exec_folio_size= covers: those\n"
	       "                             with an execute bit (default), or all\n"
	       "    -o trace=FILE            readahead off; record first page touches in FILE\n"
	       "    --trace FILE             the same\n"
	       "    -o timeout=SECONDS       attribute and entry cache timeout (default 1)\n"
	       "SIZE: " POLICY_SIZE_HELP ".\n"
	       "Unmount with: fusermount3 -u MOUNTPOINT. See execfoliofs(8).\n");
}

static int opt_proc(void *data, const char *arg, int key,
		    struct fuse_args *outargs)
{
	struct efs_config *conf = data;

	if (key != FUSE_OPT_KEY_NONOPT)
		return 1;
	/* The first bare word is ours; the mount point goes to libfuse. */
	if (!conf->backing) {
		conf->backing = xstrdup(arg);
		return 0;
	}
	if (!conf->nonopts++)
		conf->mountpoint = arg;
	return 1;
}

/*
 * --trace FILE and --trace=FILE, the spelling of the other programs'
 * options, for -o trace=FILE: taken out of argv (fuse_opt's "--trace %s"
 * would take "--traceFILE" too, and a FILE with a comma could not go
 * through -o). Returns -1 when FILE is missing.
 */
static int take_trace_option(int *argc, char **argv, struct efs_config *conf)
{
	int i, out = 1;

	for (i = 1; i < *argc; i++) {
		const char *value = NULL;

		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--trace")) {
			if (i + 1 == *argc) {
				usage_error(NULL,
					    "option '--trace' needs a FILE");
				return -1;
			}
			value = argv[++i];
		} else if (!strncmp(argv[i], "--trace=", 8)) {
			value = argv[i] + 8;
		}
		if (value) {
			free(conf->trace);
			conf->trace = xstrdup(value);
			continue;
		}
		argv[out++] = argv[i];
	}
	while (i < *argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	*argc = out;
	return 0;
}

/*
 * libfuse calls a missing mount point a usage error and mounts on a
 * regular file as readily as on a directory (every access then fails with
 * EIO): both are a mount that cannot be made, exit status 1. mount.fuse3's
 * drop_privileges passes an open /dev/fuse as /dev/fd/N instead.
 */
static int check_mountpoint(const char *path)
{
	struct stat st;
	unsigned int fd;
	int end = 0;

	if (sscanf(path, "/dev/fd/%u%n", &fd, &end) == 1 && !path[end])
		return 0;
	if (stat(path, &st)) {
		err_msg("cannot use mount point %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_msg("mount point %s is not a directory", path);
		return -1;
	}
	return 0;
}

/* Every inode the kernel remembers holds one O_PATH descriptor. */
static void raise_nofile(void)
{
	struct rlimit rl;
	FILE *f;
	long nr_open = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	f = fopen("/proc/sys/fs/nr_open", "re");
	if (f) {
		if (fscanf(f, "%ld", &nr_open) != 1)
			nr_open = 0;
		fclose(f);
	}
	if (nr_open > 0 && (rlim_t)nr_open > rl.rlim_max) {
		struct rlimit want = { nr_open, nr_open };

		if (!setrlimit(RLIMIT_NOFILE, &want))
			return;
	}
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static int open_backing(const char *dir)
{
	struct stat st;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), probe;

	if (fd < 0) {
		err_msg("cannot use backing directory %s: %s", dir,
			strerror(errno));
		return -1;
	}
	probe = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (probe < 0) {
		err_msg("cannot read backing directory %s: %s", dir,
			strerror(errno));
		close(fd);
		return -1;
	}
	close(probe);
	fstat(fd, &st);
	efs.root.fd = fd;
	efs.root.dev = st.st_dev;
	efs.root.ino = st.st_ino;
	efs.root.mode = st.st_mode;
	efs.root.nlookup = 2; /* never forgotten */
	efs.root.is_root = true;
	pthread_mutex_init(&efs.root.lock, NULL);
	return 0;
}

void efs_init(void *userdata, struct fuse_conn_info *conn)
{
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
	/*
	 * Replies to reads splice the backing file's pages into the device
	 * (one copy instead of two); libfuse copies replies under two pages
	 * anyway, where a pipe would cost more than it saves.
	 */
	if (conn->capable & FUSE_CAP_SPLICE_WRITE)
		conn->want |= FUSE_CAP_SPLICE_WRITE;
	/* Trace mode: each page of a mapping is read by itself, once. */
	if (efs.trace)
		conn->max_readahead = 0;
}

void efs_destroy(void *userdata)
{
}

/* libfuse's signal handler records the signal as the session's error. */
static int exit_status(int loop_ret)
{
	if (!loop_ret || loop_ret == SIGTERM || loop_ret == SIGINT ||
	    loop_ret == SIGHUP)
		return 0;
	return EXIT_FAILED;
}

static int add_mount_options(struct fuse_args *args)
{
	char *opts = NULL;
	int ret;

	ret = fuse_opt_add_opt(&opts, "default_permissions");
	if (!ret && !geteuid())
		ret = fuse_opt_add_opt(&opts, "allow_other");
	if (!ret)
		ret = fuse_opt_add_opt(&opts, "fsname=");
	if (!ret) {
		/* fsname=BACKING, with commas and backslashes escaped */
		char *tail = NULL;

		ret = fuse_opt_add_opt_escaped(&tail, efs.backing);
		if (!ret) {
			size_t len = strlen(opts) + strlen(tail) + 1;
			char *joined = malloc(len);

			if (!joined)
				ret = -1;
			else
				snprintf(joined, len, "%s%s", opts, tail);
			free(opts);
			opts = joined;
		}
		free(tail);
	}
	if (!ret)
		ret = fuse_opt_add_opt(&opts,
				       "subtype=" EXECFOLIO_FUSE_SUBTYPE);
	if (!ret)
		ret = fuse_opt_add_arg(args, "-o");
	if (!ret)
		ret = fuse_opt_add_arg(args, opts);
	free(opts);
	return ret;
}

/* A bad size or scope is a usage error, as for the other programs. */
static int parse_policy(const char *size_value, const char *scope_value)
{
	uint32_t size;

	if (size_value) {
		if (execfolio_parse_size_str(size_value, &size))
			return usage_error(
				NULL,
				"invalid exec_folio_size=%s: expected " POLICY_SIZE_HELP,
				size_value);
		efs.has_mount_policy = true;
		efs.mount_policy = size;
	}
	if (scope_value &&
	    execfolio_parse_scope_str(scope_value, &efs.mount_scope))
		return usage_error(
			NULL,
			"invalid exec_folio_scope=%s: expected exec (files with an execute bit) or all (every regular file)",
			scope_value);
	return 0;
}

static int run(struct fuse_session *se, struct fuse_cmdline_opts *opts)
{
	struct fuse_loop_config *loop;
	int ret = EXIT_FAILED, err;

	if (fuse_set_signal_handlers(se))
		return ret;
	if (fuse_session_mount(se, opts->mountpoint))
		goto out_signals;
	if (fuse_daemonize(opts->foreground))
		goto out_unmount;
	/* After the fork: the table's resize worker is a thread. */
	err = efs_table_init();
	if (err) {
		err_msg("inode table: %s", strerror(-err));
		goto out_unmount;
	}
	if (opts->singlethread) {
		ret = exit_status(fuse_session_loop(se));
	} else {
		loop = fuse_loop_cfg_create();
		if (!loop)
			goto out_unmount;
		fuse_loop_cfg_set_clone_fd(loop, opts->clone_fd);
		/* UINT_MAX: not given, which libfuse 3.14 logs as invalid. */
		if (opts->max_idle_threads != UINT_MAX)
			fuse_loop_cfg_set_idle_threads(loop,
						       opts->max_idle_threads);
		fuse_loop_cfg_set_max_threads(loop, opts->max_threads);
		ret = exit_status(fuse_session_loop_mt(se, loop));
		fuse_loop_cfg_destroy(loop);
	}
out_unmount:
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
	return ret;
}

int main(int argc, char **argv)
{
	struct efs_config conf = { .timeout = 1.0 };
	struct fuse_args args;
	struct fuse_cmdline_opts opts;
	struct fuse_session *se;
	char err[512];
	int ret;

	if (argc > 1 && !strcmp(argv[1], "--report"))
		return efs_run_report(argc - 1, argv + 1);
	if (take_trace_option(&argc, argv, &conf))
		return EXIT_USAGE;
	args = (struct fuse_args)FUSE_ARGS_INIT(argc, argv);

	/*
	 * libfuse 3.14 complains about its own default when max_threads is
	 * not given; a later -o max_threads= still overrides this one.
	 */
	if (fuse_opt_parse(&args, &conf, efs_opts, opt_proc) ||
	    fuse_opt_insert_arg(&args, 1, "-omax_threads=10"))
		return usage_hint(NULL);
	ret = parse_policy(conf.exec_folio_size, conf.exec_folio_scope);
	if (ret)
		return ret;
	if (conf.backing && conf.nonopts == 1 &&
	    check_mountpoint(conf.mountpoint))
		return EXIT_FAILED;
	if (fuse_parse_cmdline(&args, &opts))
		return usage_hint(NULL);
	if (opts.show_help) {
		usage();
		printf("\nlibfuse options:\n");
		fuse_cmdline_help();
		fuse_lowlevel_help();
		return EXIT_OK;
	}
	if (opts.show_version) {
		printf("execfoliofs %s, libfuse %s\n", EXECFOLIO_VERSION,
		       fuse_pkgversion());
		return EXIT_OK;
	}
	if (!conf.backing || !opts.mountpoint || conf.nonopts > 1)
		return usage_error(NULL, "expected BACKING_DIR and MOUNTPOINT");
	if (conf.timeout < 0)
		return usage_error(NULL, "timeout must not be negative");
	efs.backing = conf.backing;
	efs.mountpoint = opts.mountpoint;
	efs.timeout = conf.timeout;
	efs.debug = opts.debug;
	if (add_mount_options(&args))
		out_of_memory();
	/*
	 * libfuse refuses the options it does not know here, a usage error
	 * found before the backing directory is opened or the trace created.
	 */
	se = fuse_session_new(&args, &efs_ops, sizeof(efs_ops), NULL);
	if (!se)
		return usage_hint(NULL);
	ret = EXIT_FAILED;
	if (open_backing(efs.backing))
		goto out;
	efs_policy_resolve(&efs.root, efs.root.mode, false);
	if (conf.trace && efs_trace_open(conf.trace, err, sizeof(err))) {
		err_msg("%s", err);
		goto out;
	}
	raise_nofile();
	/* The kernel applied the caller's umask already. */
	umask(0);
	ret = run(se, &opts);
	efs_table_destroy();
	efs_trace_close();
	close(efs.root.fd);
out:
	fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	free(opts.mountpoint);
	free(conf.backing);
	return ret;
}
