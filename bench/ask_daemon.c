// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * benchhelper ask OUTFILE ADDRESS REQUEST REPLY [TIMEOUT_MS]: how long a
 * daemon that is starting takes to answer.  Every millisecond, connect to
 * ADDRESS ("unix:PATH" or "tcp:IPV4:PORT"), send REQUEST (C escapes \r
 * and \n are understood) and read the reply; stop at the first reply that
 * starts with REPLY and write "wall_ns N tries N" to OUTFILE, the time
 * since the command started.  Exit 1 when no such reply came within
 * TIMEOUT_MS (default 60000).
 *
 * The cold-start benchmark used to poll with the daemon's own client
 * every 20 ms: its times came in steps of a client's start (a fork, an
 * exec and the client's faults, competing with the daemon for the one
 * CPU under -icount), which were as large as the differences between
 * kernels.  A connect() from here costs no exec and no fault.  A try
 * whose connection is not established within ASK_CONNECT_TIMEOUT_MS is
 * abandoned: a blocking connect() whose SYN got no answer waits for TCP
 * to send it again, a second later, and the time measured would be
 * TCP's timer, not the daemon's start.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ask_daemon.h"
#include "monotonic.h"

#define ASK_INTERVAL_NS 1000000L
#define ASK_CONNECT_TIMEOUT_MS 10
#define ASK_REPLY_MAX 256

struct daemon_address {
	struct sockaddr_storage addr;
	socklen_t len;
};

static int parse_address(const char *text, struct daemon_address *a)
{
	memset(a, 0, sizeof(*a));
	if (!strncmp(text, "unix:", 5)) {
		struct sockaddr_un *un = (struct sockaddr_un *)&a->addr;

		if (strlen(text + 5) >= sizeof(un->sun_path))
			return -1;
		un->sun_family = AF_UNIX;
		strcpy(un->sun_path, text + 5);
		a->len = sizeof(*un);
		return 0;
	}
	if (!strncmp(text, "tcp:", 4)) {
		struct sockaddr_in *in = (struct sockaddr_in *)&a->addr;
		char host[INET_ADDRSTRLEN];
		const char *colon = strrchr(text + 4, ':');
		char *end;
		long port;

		if (!colon || colon - (text + 4) >= (long)sizeof(host))
			return -1;
		memcpy(host, text + 4, colon - (text + 4));
		host[colon - (text + 4)] = '\0';
		port = strtol(colon + 1, &end, 10);
		if (*end || port < 1 || port > 65535 ||
		    inet_pton(AF_INET, host, &in->sin_addr) != 1)
			return -1;
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		a->len = sizeof(*in);
		return 0;
	}
	return -1;
}

/* REQUEST with \r, \n and \\ turned into the bytes they stand for. */
static size_t unescape(char *s)
{
	char *in = s, *out = s;

	while (*in) {
		if (in[0] == '\\' &&
		    (in[1] == 'r' || in[1] == 'n' || in[1] == '\\')) {
			*out++ = in[1] == 'r' ? '\r' :
				 in[1] == 'n' ? '\n' :
						'\\';
			in += 2;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
	return out - s;
}

/* Whether the non-blocking FD got connected to A in time. */
static bool connected(int fd, const struct daemon_address *a)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int error;

	if (!connect(fd, (const struct sockaddr *)&a->addr, a->len))
		return true;
	if (errno != EINPROGRESS ||
	    poll(&pfd, 1, ASK_CONNECT_TIMEOUT_MS) != 1 ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len))
		return false;
	return error == 0;
}

/* One connection: whether the daemon's reply starts with REPLY. */
static bool ask_once(const struct daemon_address *a, const char *request,
		     size_t request_len, const char *reply)
{
	size_t want = strlen(reply), got = 0;
	char buf[ASK_REPLY_MAX];
	bool answered = false;
	int fd;

	fd = socket(a->addr.ss_family,
		    SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return false;
	if (!connected(fd, a) || fcntl(fd, F_SETFL, 0) ||
	    write(fd, request, request_len) != (ssize_t)request_len)
		goto out;
	while (got < want) {
		ssize_t n = read(fd, buf + got, want - got);

		if (n <= 0)
			goto out;
		got += n;
	}
	answered = !memcmp(buf, reply, want);
out:
	close(fd);
	return answered;
}

int cmd_ask(int argc, char **argv)
{
	const struct timespec interval = { 0, ASK_INTERVAL_NS };
	uint64_t start = monotonic_ns(), deadline;
	struct daemon_address address;
	unsigned long tries = 0;
	long timeout_ms = 60000;
	size_t request_len;
	char *end;
	FILE *out;

	if (argc != 4 && argc != 5) {
		fprintf(stderr,
			"usage: benchhelper ask OUTFILE ADDRESS REQUEST REPLY [TIMEOUT_MS]\n");
		return 2;
	}
	if (parse_address(argv[1], &address)) {
		fprintf(stderr,
			"benchhelper: ask: '%s' is neither unix:PATH nor tcp:IPV4:PORT\n",
			argv[1]);
		return 2;
	}
	if (strlen(argv[3]) == 0 || strlen(argv[3]) > ASK_REPLY_MAX) {
		fprintf(stderr,
			"benchhelper: ask: the reply to wait for must have 1 to %d bytes\n",
			ASK_REPLY_MAX);
		return 2;
	}
	if (argc == 5) {
		timeout_ms = strtol(argv[4], &end, 10);
		if (*end || timeout_ms <= 0) {
			fprintf(stderr,
				"benchhelper: ask: TIMEOUT_MS '%s' is not a positive number\n",
				argv[4]);
			return 2;
		}
	}
	request_len = unescape(argv[2]);
	deadline = start + (uint64_t)timeout_ms * 1000000ull;
	for (;;) {
		tries++;
		if (ask_once(&address, argv[2], request_len, argv[3]))
			break;
		if (monotonic_ns() >= deadline) {
			fprintf(stderr,
				"benchhelper: ask: %s gave no reply starting with '%s' in %ld ms (%lu tries)\n",
				argv[1], argv[3], timeout_ms, tries);
			return 1;
		}
		nanosleep(&interval, NULL);
	}
	out = fopen(argv[0], "w");
	if (!out ||
	    fprintf(out, "wall_ns %llu tries %lu\n",
		    (unsigned long long)(monotonic_ns() - start), tries) < 0 ||
	    fclose(out)) {
		fprintf(stderr, "benchhelper: %s: %s\n", argv[0],
			strerror(errno));
		return 1;
	}
	return 0;
}
