// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * benchhelper dm-delay NAME DEVICE MS: put device-mapper's delay target
 * over DEVICE, so that every request to /dev/mapper/NAME waits MS
 * milliseconds before it reaches DEVICE (0: passed on at once), and print
 * the new device's name in /dev ("dm-N").  The cold-start benchmark gives
 * the guest's disk the latency of an SSD or a spinning disk this way; the
 * guest has no dmsetup, so the three ioctls it would issue are here.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dm_delay.h"

#define DM_CONTROL "/dev/mapper/control"

/* One struct dm_ioctl followed by at most one target and its parameters. */
struct dm_request {
	struct dm_ioctl header;
	struct dm_target_spec target;
	char params[256];
};

static void dm_request_init(struct dm_request *req, const char *name)
{
	memset(req, 0, sizeof(*req));
	req->header.version[0] = DM_VERSION_MAJOR;
	req->header.version[1] = DM_VERSION_MINOR;
	req->header.version[2] = DM_VERSION_PATCHLEVEL;
	req->header.data_size = sizeof(*req);
	req->header.data_start = sizeof(req->header);
	snprintf(req->header.name, sizeof(req->header.name), "%s", name);
}

static int dm_ioctl(int control, unsigned long cmd, struct dm_request *req,
		    const char *what)
{
	if (ioctl(control, cmd, req) == 0)
		return 0;
	fprintf(stderr, "benchhelper: dm-delay: %s %s: %s\n", what,
		req->header.name, strerror(errno));
	return -1;
}

int cmd_dm_delay(int argc, char **argv)
{
	const char *name, *device;
	struct dm_request req;
	unsigned long delay_ms;
	uint64_t bytes;
	char *end;
	int control, fd;

	if (argc != 3) {
		fprintf(stderr, "usage: benchhelper dm-delay NAME DEVICE MS\n");
		return 2;
	}
	name = argv[0];
	device = argv[1];
	errno = 0;
	delay_ms = strtoul(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || delay_ms > 10000) {
		fprintf(stderr,
			"benchhelper: dm-delay: bad delay '%s': give whole milliseconds, 0 to 10000\n",
			argv[2]);
		return 2;
	}
	fd = open(device, O_RDONLY);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
		fprintf(stderr, "benchhelper: dm-delay: %s: %s\n", device,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	control = open(DM_CONTROL, O_RDWR);
	if (control < 0) {
		fprintf(stderr,
			"benchhelper: dm-delay: %s: %s (a kernel with CONFIG_DM_DELAY)\n",
			DM_CONTROL, strerror(errno));
		return 1;
	}

	dm_request_init(&req, name);
	if (dm_ioctl(control, DM_DEV_CREATE, &req, "create"))
		goto fail;

	dm_request_init(&req, name);
	req.header.target_count = 1;
	req.target.sector_start = 0;
	req.target.length = bytes >> 9;
	snprintf(req.target.target_type, sizeof(req.target.target_type),
		 "delay");
	snprintf(req.params, sizeof(req.params), "%s 0 %lu", device, delay_ms);
	if (dm_ioctl(control, DM_TABLE_LOAD, &req, "load the delay table of"))
		goto remove;

	/* Resuming a device with a loaded table makes that table live. */
	dm_request_init(&req, name);
	if (dm_ioctl(control, DM_DEV_SUSPEND, &req, "resume"))
		goto remove;
	printf("dm-%u\n", minor(req.header.dev));
	close(control);
	return 0;

remove:
	dm_request_init(&req, name);
	dm_ioctl(control, DM_DEV_REMOVE, &req, "remove");
fail:
	close(control);
	return 1;
}
