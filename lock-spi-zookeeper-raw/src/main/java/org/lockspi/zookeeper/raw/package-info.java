/**
 * The {@code zookeeper-raw} lock provider, {@link org.lockspi.zookeeper.raw.RawZooKeeperLockProvider}: ZooKeeper
 * locks on the plain {@code org.apache.zookeeper.ZooKeeper} client. Applications do not use this package directly;
 * they open {@code Locks.open("zookeeper://...")} and the provider is found on the class path.
 */
package org.lockspi.zookeeper.raw;
