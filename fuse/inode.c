// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The inode table: a liburcu lock-free hash table (urcu-memb flavour) keyed
 * by the backing (st_dev, st_ino). Lookups from every worker thread run in
 * parallel without a global lock; an inode leaves the table when the kernel
 * has forgotten every lookup of it and is freed after a grace period, so a
 * concurrent reader never sees freed memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "execfoliofs.h"

static pthread_key_t rcu_key;
static __thread bool rcu_registered;

static void rcu_thread_exit(void *arg)
{
	urcu_memb_unregister_thread();
}

/*
 * libfuse starts and stops worker threads itself, so each registers with
 * RCU on its first use of the table and unregisters when it exits.
 */
void efs_rcu_thread(void)
{
	if (rcu_registered)
		return;
	urcu_memb_register_thread();
	rcu_registered = true;
	pthread_setspecific(rcu_key, (void *)1);
}

static unsigned long hash_key(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull;

	return (unsigned long)(h ^ ((uint64_t)dev * 0xc2b2ae3d27d4eb4full));
}

struct key {
	dev_t dev;
	ino_t ino;
};

/* A dying inode (no lookups left) no longer matches: it is replaced. */
static int match_live(struct cds_lfht_node *node, const void *arg)
{
	struct efs_inode *inode =
		caa_container_of(node, struct efs_inode, node);
	const struct key *key = arg;

	return inode->dev == key->dev && inode->ino == key->ino &&
	       uatomic_read(&inode->nlookup) != 0;
}

int efs_table_init(void)
{
	int ret = pthread_key_create(&rcu_key, rcu_thread_exit);

	if (ret)
		return -ret;
	efs.table = cds_lfht_new_flavor(
		1024, 1024, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
		&urcu_memb_flavor, NULL);
	if (!efs.table)
		return -ENOMEM;
	efs_rcu_thread();
	return 0;
}

static void inode_free_memory(struct efs_inode *inode)
{
	pthread_mutex_destroy(&inode->lock);
	free(inode);
}

static void inode_free(struct efs_inode *inode)
{
	close(inode->fd);
	inode_free_memory(inode);
}

static void inode_free_rcu(struct rcu_head *head)
{
	inode_free_memory(caa_container_of(head, struct efs_inode, rcu));
}

/*
 * An inode just taken out of the table: concurrent readers of the table
 * look at dev, ino and nlookup only, and the kernel sends nothing more for
 * this node id, so the backing inode is let go now, as passthrough_ll
 * does; only the memory waits for a grace period.
 */
static void inode_retire(struct efs_inode *inode)
{
	close(inode->fd);
	urcu_memb_call_rcu(&inode->rcu, inode_free_rcu);
}

void efs_table_destroy(void)
{
	struct cds_lfht_iter iter;
	struct efs_inode *inode;

	if (!efs.table)
		return;
	urcu_memb_read_lock();
	cds_lfht_for_each_entry(efs.table, &iter, inode, node)
	{
		if (!cds_lfht_del(efs.table, &inode->node))
			inode_retire(inode);
	}
	urcu_memb_read_unlock();
	urcu_memb_barrier();
	cds_lfht_destroy(efs.table, NULL);
	efs.table = NULL;
}

struct efs_inode *efs_inode(fuse_ino_t ino)
{
	if (ino == FUSE_ROOT_ID)
		return &efs.root;
	return (struct efs_inode *)(uintptr_t)ino;
}

/* Take a reference unless the count already fell to zero. */
static bool get_live(struct efs_inode *inode)
{
	uint64_t old = uatomic_read(&inode->nlookup), seen;

	while (old) {
		seen = uatomic_cmpxchg(&inode->nlookup, old, old + 1);
		if (seen == old)
			return true;
		old = seen;
	}
	return false;
}

struct efs_inode *efs_inode_get(int fd, const struct stat *st, bool created)
{
	struct key key = { st->st_dev, st->st_ino };
	unsigned long hash = hash_key(key.dev, key.ino);
	struct efs_inode *inode, *fresh = NULL;
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;

	if (key.dev == efs.root.dev && key.ino == efs.root.ino) {
		close(fd);
		uatomic_inc(&efs.root.nlookup);
		return &efs.root;
	}
	efs_rcu_thread();
	for (;;) {
		urcu_memb_read_lock();
		cds_lfht_lookup(efs.table, hash, match_live, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node) {
			inode = caa_container_of(node, struct efs_inode, node);
			if (get_live(inode)) {
				urcu_memb_read_unlock();
				if (fresh)
					inode_free(fresh); /* closes fd */
				else
					close(fd);
				return inode;
			}
			/* Lost a race with the last forget: look again. */
			urcu_memb_read_unlock();
			continue;
		}
		if (!fresh) {
			urcu_memb_read_unlock();
			fresh = calloc(1, sizeof(*fresh));
			if (!fresh) {
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			fresh->fd = fd;
			fresh->dev = key.dev;
			fresh->ino = key.ino;
			fresh->nlookup = 1;
			pthread_mutex_init(&fresh->lock, NULL);
			cds_lfht_node_init(&fresh->node);
			efs_policy_resolve(fresh, st->st_mode, created);
			continue;
		}
		node = cds_lfht_add_unique(efs.table, hash, match_live, &key,
					   &fresh->node);
		urcu_memb_read_unlock();
		if (node == &fresh->node) {
			uatomic_inc(&efs.inodes);
			return fresh;
		}
		/* Someone inserted it first: retry and take theirs. */
	}
}

void efs_inode_forget(struct efs_inode *inode, uint64_t n)
{
	uint64_t left;
	bool removed;

	if (inode == &efs.root) {
		uatomic_sub(&efs.root.nlookup, n);
		return;
	}
	left = uatomic_sub_return(&inode->nlookup, n);
	if (left)
		return;
	efs_rcu_thread();
	urcu_memb_read_lock();
	removed = !cds_lfht_del(efs.table, &inode->node);
	urcu_memb_read_unlock();
	if (!removed)
		return;
	uatomic_dec(&efs.inodes);
	inode_retire(inode);
}
