// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running xfs_db: a whole batch of commands goes into one file that a
 * single `xfs_db -x -c "source FILE"` runs, and its output comes back as
 * lines. xfs_db reports errors on stdout between the fields it prints and
 * does not stop, so callers check every line (db_line_ok() in dbparse.c)
 * and each value they wrote against how xfs_db prints it (xfsdb_render).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mkfs.h"

volatile sig_atomic_t running_child;

int run_program(char *const argv[], const char *cwd, const char *out_path,
		const char *err_path)
{
	sigset_t all, old;
	int status;
	pid_t pid;

	fflush(NULL);
	/* No signal between fork() and running_child naming the child. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid < 0) {
		status = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		return status;
	}
	if (!pid) {
		int out, err, in;

		/* The parent's handlers are not for the child. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		in = open("/dev/null", O_RDONLY);
		if (out < 0 || err < 0 || in < 0 || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		if (cwd && chdir(cwd))
			_exit(126);
		setenv("LC_ALL", "C", 1);
		/*
		 * xfs_db prints the timestamps it writes with localtime(),
		 * which without TZ checks /etc/localtime again every time:
		 * two system calls per entry of the tree.
		 */
		setenv("TZ", "UTC0", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	running_child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			running_child = 0;
			return -errno;
		}
	}
	running_child = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int read_whole(const char *path, char **buf, size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	*buf = xmalloc(st.st_size + 1);
	while (got < (size_t)st.st_size) {
		n = read(fd, *buf + got, st.st_size - got);
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	(*buf)[got] = '\0';
	*len = got;
	return 0;
}

int xfsdb_run(const struct xfsprogs *x, const char *image, const char *cmd_path,
	      const char *workdir, struct dbout *out)
{
	char *source, *out_path, *err_path, *errbuf = NULL;
	size_t errlen = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	source = xasprintf("source %s", cmd_path);
	out_path = xasprintf("%s/db.out", workdir);
	err_path = xasprintf("%s/db.err", workdir);
	{
		char *argv[] = { (char *)x->db, "-x",	       "-c",
				 source,	(char *)image, NULL };

		ret = run_program(argv, NULL, out_path, err_path);
	}
	if (!ret)
		ret = read_whole(out_path, &out->buf, &out->len);
	if (!read_whole(err_path, &errbuf, &errlen) && errlen) {
		err_msg("xfs_db failed on the new image:");
		fprintf(stderr, "%s", errbuf);
		ret = -EIO;
	} else if (ret > 0) {
		err_msg("xfs_db failed on the new image (exit status %d)", ret);
		ret = -EIO;
	}
	free(errbuf);
	free(source);
	free(out_path);
	free(err_path);
	if (ret)
		return ret < 0 ? ret : -EIO;
	ret = dbout_split(out);
	if (ret)
		err_msg("out of memory");
	return ret;
}

/* xfs_db's fp_charns(), in the C locale. */
void xfsdb_render(FILE *out, const void *bytes, size_t len)
{
	const unsigned char *s = bytes;
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '\\' || c == '\'' || c == '"' || c == '?')
			fprintf(out, "\\%c", c);
		else if ((c > ' ' && c < 0x7f) || c == ' ')
			fputc(c, out);
		else if (c >= '\a' && c <= '\r')
			fprintf(out, "\\%c", c + ('a' - '\a'));
		else
			fprintf(out, "\\%03o", c);
	}
	fputc('"', out);
}

char *xfsdb_render_str(const unsigned char *s, size_t len)
{
	return render_str(xfsdb_render, s, len);
}

void xfsdb_hex(FILE *out, const unsigned char *s, size_t len)
{
	size_t i;

	fputc('#', out);
	for (i = 0; i < len; i++)
		fprintf(out, "%02x", s[i]);
}
