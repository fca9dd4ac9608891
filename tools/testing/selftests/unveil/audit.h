/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unveil selftests - the audit netlink socket: a test becomes the audit
 * daemon while it runs and reads the AVC records of refusals.
 */

#ifndef _SELFTESTS_UNVEIL_AUDIT_H
#define _SELFTESTS_UNVEIL_AUDIT_H

#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

/* Sets the audit status fields in @mask; returns 0 or the errno. */
static inline int audit_set(int fd, __u32 mask, __u32 enabled, __u32 pid)
{
	struct {
		struct nlmsghdr nlh;
		struct audit_status status;
	} req = {
		.nlh = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(struct audit_status)),
			.nlmsg_type = AUDIT_SET,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
			.nlmsg_seq = 1,
		},
		.status = { .mask = mask, .enabled = enabled, .pid = pid },
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char reply[8192];

	if (sendto(fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return errno;
	for (;;) {
		const struct nlmsghdr *nlh = (const void *)reply;
		ssize_t len = recv(fd, reply, sizeof(reply), 0);

		if (len < 0)
			return errno;
		if (nlh->nlmsg_type == NLMSG_ERROR)
			return -((const struct nlmsgerr *)NLMSG_DATA(nlh))->error;
	}
}

/*
 * Waits up to a second for an AVC record with @text in it; copies the
 * record to @record.  Returns whether one came.
 */
static inline bool audit_find(int fd, const char *text, char *record, size_t size)
{
	struct timeval timeout = { .tv_sec = 1 };
	char reply[8192];
	ssize_t len;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	while ((len = recv(fd, reply, sizeof(reply) - 1, 0)) > 0) {
		const struct nlmsghdr *nlh = (const void *)reply;
		char *data = NLMSG_DATA(nlh);

		if (nlh->nlmsg_type != AUDIT_AVC)
			continue;
		/* Audit's nlmsg_len leaves out the header: use what came. */
		data[len - NLMSG_HDRLEN] = '\0';
		if (strstr(data, text)) {
			snprintf(record, size, "%s", data);
			return true;
		}
	}
	return false;
}

#endif /* _SELFTESTS_UNVEIL_AUDIT_H */
