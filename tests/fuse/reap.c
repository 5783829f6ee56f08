// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reap COMMAND [ARG...]: run COMMAND as a child subreaper and wait until it
 * and every process it left behind have exited, printing "NAME STATUS" for
 * each (STATUS an exit status, or "signal N"). A FUSE daemon started by
 * mount(8) forks away from it; this is how a test sees that daemon's exit
 * status. Exits with COMMAND's status (127 when it cannot be run).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The name of the exited process @pid, read before it is reaped. */
static void process_name(pid_t pid, char *name, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f || !fgets(name, size, f))
		snprintf(name, size, "pid-%d", (int)pid);
	else
		name[strcspn(name, "\n")] = '\0';
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	int status = 127, child_status;
	siginfo_t info;
	char name[64];
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: reap COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		perror("reap: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("reap: fork");
		return 1;
	}
	if (!child) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "reap: cannot run %s: %s\n", argv[1],
			strerror(errno));
		_exit(127);
	}
	for (;;) {
		memset(&info, 0, sizeof(info));
		if (waitid(P_ALL, 0, &info, WEXITED | WNOWAIT)) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing is left */
		}
		process_name(info.si_pid, name, sizeof(name));
		if (waitpid(info.si_pid, &child_status, 0) < 0)
			continue;
		if (WIFEXITED(child_status))
			printf("%s %d\n", name, WEXITSTATUS(child_status));
		else
			printf("%s signal %d\n", name, WTERMSIG(child_status));
		fflush(stdout);
		if (info.si_pid == child)
			status = WIFEXITED(child_status) ?
					 WEXITSTATUS(child_status) :
					 128 + WTERMSIG(child_status);
	}
	return status;
}
