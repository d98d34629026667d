/**
 * The ZooKeeper lock recipe shared by the ZooKeeper providers: {@link org.lockspi.zookeeper.recipe.ZkLockBackend}
 * implements the provider SPI's {@code LockBackend} once, over the small
 * {@link org.lockspi.zookeeper.recipe.ZkOps} interface that each client library (the plain ZooKeeper client,
 * ZkClient) implements. Node names and ordering ({@link org.lockspi.zookeeper.recipe.ZkLayout}) and the
 * "do I hold it, whom do I wait for" rules ({@link org.lockspi.zookeeper.recipe.ZkPredicates}) follow Apache
 * Curator's recipes, so all of them interoperate with each other and with plain Curator applications.
 */
package org.lockspi.zookeeper.recipe;
