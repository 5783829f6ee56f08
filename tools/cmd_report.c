// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio report TRACE: what each policy would have given the workload
 * an execfoliofs trace recorded (lib/report.c simulates, report_table.c
 * and report_json.c print), and --apply DIR to store the suggestions.
 *
 * execfoliofs --report runs this command (fuse/report.c). argv[0],
 * "report", names it in messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <execfolio/policy.h>
#include <execfolio/report.h>
#include <execfolio/xattr.h>

#include "execfolio.h"

static void report_usage(const char *cmd)
{
	printf("Usage: %s %s [--per-file] [--all] [--json] [--kernel VERSION]\n"
	       "          [--arch ARCH] [--ra-kb KB] [--fault-around-kb KB]\n"
	       "          [--apply DIR] TRACE\n"
	       "\n"
	       "Replays the first touches an execfoliofs trace recorded (execfoliofs\n"
	       "-o trace=TRACE) through a model of the Linux page cache under stock\n"
	       "readahead, option one (64K exec folios), this policy at each size\n"
	       "from 16k to 2m and the policy each file had, and prints the folio\n"
	       "table of each, with a suggested size per file.\n"
	       "\n"
	       "  --per-file            the table of each file too\n"
	       "  --all                 every file, not only those with executable text\n"
	       "  --json                one JSON object instead of the tables\n"
	       "  --kernel VERSION      the kernel modelled: 7.3 (default) or 6.12\n"
	       "  --arch ARCH           arm64 or x86_64, for 7.3's exec folios without\n"
	       "                        a policy (default %s, this machine's)\n"
	       "  --ra-kb KB            the read-ahead window (default 128)\n"
	       "  --fault-around-kb KB  fault_around_bytes in kB (default 64)\n"
	       "  --apply DIR           store each suggestion on DIR/PATH\n"
	       "\n"
	       "Exit status: 0 success, 1 unreadable or malformed trace or a\n"
	       "suggestion not stored, 2 usage.\n",
	       progname, cmd,
	       execfolio_sim_arch_name(EXECFOLIO_SIM_ARCH_NATIVE));
}

/* A number of kB up to EXECFOLIO_REPORT_KB_MAX. */
static int parse_kb(const char *arg, unsigned int *kb)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno ||
	    v > EXECFOLIO_REPORT_KB_MAX)
		return -EINVAL;
	*kb = (unsigned int)v;
	return 0;
}

/*
 * --apply DIR: store each suggestion on the file resolved inside DIR;
 * "set SIZE DIR/PATH" lines on @log.
 */
static int apply(const char *cmd, const struct execfolio_report *r,
		 const char *dir, FILE *log)
{
	char path[8192], canon[EXECFOLIO_SIZE_STR], err[EXECFOLIO_ERR_MAX];
	int status = EXIT_OK, dirfd, fd, ret;
	size_t i;

	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		err_msg("%s: --apply %s: %s", cmd, dir, strerror(errno));
		return EXIT_FAILED;
	}
	for (i = 0; i < r->nfiles; i++) {
		const struct execfolio_report_file *f = &r->files[i];

		if (!f->included || !f->suggested)
			continue;
		fd = execfolio_report_open_target(dirfd, dir, f->path, err,
						  sizeof(err));
		if (fd < 0) {
			err_msg("%s: %s", cmd, err);
			status = EXIT_FAILED;
			if (fd == -ENOSYS)
				break;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, f->path);
		ret = execfolio_xattr_fset(fd, path, f->suggested, err,
					   sizeof(err));
		close(fd);
		if (ret) {
			err_msg("%s: %s", cmd, err);
			status = EXIT_FAILED;
			continue;
		}
		fprintf(log, "set %s %s\n",
			execfolio_format_size(f->suggested, canon), path);
	}
	close(dirfd);
	return status;
}

static int load(const char *cmd, const char *trace, struct execfolio_report *r)
{
	FILE *in = fopen(trace, "re");
	char err[EXECFOLIO_ERR_MAX];
	int ret;

	if (!in) {
		err_msg("%s: cannot read trace %s: %s", cmd, trace,
			strerror(errno));
		return -errno;
	}
	ret = execfolio_report_load(r, in, trace, err, sizeof(err));
	fclose(in);
	if (ret)
		err_msg("%s: %s", cmd, err);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "per-file", no_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "ra-kb", required_argument, NULL, 'r' },
		{ "fault-around-kb", required_argument, NULL, 'f' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "arch", required_argument, NULL, 'm' },
		{ "apply", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct execfolio_report_options ro = { .ra_kb = 128,
					       .fault_around_kb = 64 };
	const char *cmd = argv[0], *apply_dir = NULL, *trace;
	const char *ra_arg = NULL, *fa_arg = NULL;
	bool per_file = false, json = false;
	struct execfolio_report r = { 0 };
	int c, status = EXIT_OK;
	char err[EXECFOLIO_ERR_MAX];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			per_file = true;
			break;
		case 'a':
			ro.all = true;
			break;
		case 'j':
			json = true;
			break;
		case 'r':
			ra_arg = optarg;
			break;
		case 'f':
			fa_arg = optarg;
			break;
		case 'k':
			if (execfolio_sim_kernel_parse(optarg, &ro.kernel))
				return usage_error(
					cmd,
					"invalid kernel '%s': expected 7.3 or 6.12",
					optarg);
			break;
		case 'm':
			if (execfolio_sim_arch_parse(optarg, &ro.arch))
				return usage_error(
					cmd,
					"invalid architecture '%s': expected arm64 or x86_64",
					optarg);
			break;
		case 'A':
			apply_dir = optarg;
			break;
		case 'h':
			report_usage(cmd);
			return EXIT_OK;
		default:
			return option_error(cmd, c, argv);
		}
	}
	if (optind + 1 != argc)
		return usage_error(cmd, "expected one TRACE file");
	if ((ra_arg && parse_kb(ra_arg, &ro.ra_kb)) ||
	    (fa_arg && parse_kb(fa_arg, &ro.fault_around_kb)))
		return usage_error(
			cmd,
			"--ra-kb and --fault-around-kb take a number of kB up to %u",
			EXECFOLIO_REPORT_KB_MAX);
	trace = argv[optind];

	if (load(cmd, trace, &r)) {
		execfolio_report_free(&r);
		return EXIT_FAILED;
	}
	if (execfolio_report_run(&r, &ro, err, sizeof(err))) {
		err_msg("%s: %s", cmd, err);
		execfolio_report_free(&r);
		return EXIT_FAILED;
	}
	if (json)
		report_print_json(stdout, &r, trace, per_file);
	else
		report_print_tables(stdout, &r, trace, per_file, ro.all);
	/* With --json the "set" lines go to stderr: stdout stays JSON. */
	if (apply_dir)
		status = apply(cmd, &r, apply_dir, json ? stderr : stdout);
	execfolio_report_free(&r);
	if (fflush(stdout) || ferror(stdout)) {
		err_msg("%s: cannot write the output: %s", cmd,
			strerror(errno));
		status = EXIT_FAILED;
	}
	return status;
}
