/**
 * The Redis lock recipe shared by the Redis providers: {@link org.lockspi.redis.recipe.RedisRecipeProvider} and
 * the backend behind it implement the provider SPI once, over the small {@link org.lockspi.redis.recipe.RedisOps}
 * interface that each client library (Jedis, Lettuce) implements. The key layout
 * ({@code <prefix>{<name>}...}), the Lua scripts and the channel messages are the recipe's alone, so providers on
 * different client libraries exclude each other on one lock and a fleet can move from one to another while it
 * runs.
 */
package org.lockspi.redis.recipe;
