/**
 * The ZooKeeper lock recipe shared by the ZooKeeper providers, as far as a provider sees it. A provider on a
 * ZooKeeper client library extends {@link org.lockspi.zookeeper.recipe.ZkRecipeProvider} and implements
 * {@link org.lockspi.zookeeper.recipe.ZkOps}, the few operations the recipe needs, over its client; the URI's
 * parameters are read once for all of them by {@link org.lockspi.zookeeper.recipe.ZkSettings} (TLS by
 * {@link org.lockspi.zookeeper.recipe.ZkTls}), and a failed connect is worded by
 * {@link org.lockspi.zookeeper.recipe.ZkConnectFailures}, so that every provider says the same.
 *
 * <p>The recipe itself (the backend, the wait loop, the queue rules, the semaphore, the session gate, node names
 * and ordering in Apache Curator's layout, inspection) lives in {@code org.lockspi.zookeeper.recipe.internal}:
 * implementation, not API, which may change in any release. Because it follows Curator's recipes, every provider
 * built on it interoperates with the others and with plain Curator applications on the same paths.
 */
package org.lockspi.zookeeper.recipe;
