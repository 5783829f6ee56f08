// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touch [-w] FILE PAGE...: map FILE readable and executable (as the loader
 * maps text) and read one byte of each listed page, in order: a workload
 * whose page faults are known exactly. With -w, print "ready" and wait
 * until killed, keeping the mapping, so that it can be measured.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile unsigned char sum = 0;
	unsigned char *map;
	struct stat st;
	int fd, i, first = 1;
	bool wait = false;

	if (argc > 1 && !strcmp(argv[1], "-w")) {
		wait = true;
		first = 2;
	}
	if (argc < first + 2) {
		fprintf(stderr, "usage: touch [-w] FILE PAGE...\n");
		return 2;
	}
	fd = open(argv[first], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[first]);
		return 1;
	}
	map = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = first + 1; i < argc; i++) {
		unsigned long p = strtoul(argv[i], NULL, 0);

		if ((off_t)(p * page) >= st.st_size) {
			fprintf(stderr, "touch: page %lu beyond the file\n", p);
			return 1;
		}
		sum += map[p * page];
	}
	if (wait) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	munmap(map, st.st_size);
	close(fd);
	return 0;
}
