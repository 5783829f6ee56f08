// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hold files mapped as program text: each FILE is mapped PROT_READ|PROT_EXEC
 * (private, like ELF text) and every STRIDE-th page of it is touched
 * (STRIDE 1 by default), then the program says "ready PID" on stdout and
 * sleeps until killed, so its text can be measured.
 *
 *   text-holder [-s STRIDE] FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), stride = 1;
	volatile unsigned char sink = 0;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		stride = atol(argv[2]);
		i = 3;
	}
	if (i >= argc || stride < 1) {
		fprintf(stderr, "usage: %s [-s STRIDE] FILE...\n", argv[0]);
		return 2;
	}
	for (; i < argc; i++) {
		struct stat st;
		unsigned char *p;
		off_t off;
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || fstat(fd, &st)) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i],
				strerror(errno));
			return 1;
		}
		p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "%s: mmap %s: %s\n", argv[0], argv[i],
				strerror(errno));
			return 1;
		}
		for (off = 0; off < st.st_size; off += page * stride)
			sink += p[off];
		close(fd);
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
