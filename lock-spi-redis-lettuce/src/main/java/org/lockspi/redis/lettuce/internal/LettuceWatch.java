package org.lockspi.redis.lettuce.internal;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.redis.recipe.RedisWatch;

/**
 * The {@link RedisWatch} of Lettuce: a subscriber connection that stays subscribed to the watch channel. Lettuce
 * reconnects it by itself (with the client's reconnect delay) and subscribes its channels again; a disconnection
 * is reported through the client's connection state listener, on a Lettuce event thread.
 */
final class LettuceWatch implements RedisWatch {
    private final AbstractRedisClient client;
    private final StatefulRedisPubSubConnection<String, String> connection;
    private final String watchChannel;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final RedisConnectionStateListener drops;

    LettuceWatch(AbstractRedisClient client, StatefulRedisPubSubConnection<String, String> connection,
                 String watchChannel, Listener listener) {
        this.client = client;
        this.connection = connection;
        this.watchChannel = watchChannel;
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                if (!channel.equals(watchChannel)) {
                    listener.message(channel, message);
                }
            }

            @Override
            public void subscribed(String channel, long count) {
                if (!channel.equals(watchChannel)) {
                    listener.subscribed(channel);
                }
            }
        });
        this.drops = new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                if (handler == connection && !closed.get()) {
                    listener.dropped();
                }
            }
        };
        client.addListener(drops);
        connection.sync().subscribe(watchChannel);
    }

    /** Sends without waiting for the reply; while disconnected Lettuce subscribes again on reconnection. */
    @Override
    public void listen(String channel, boolean subscribe) {
        if (closed.get()) {
            return;
        }
        RedisPubSubAsyncCommands<String, String> commands = connection.async();
        try {
            // not awaited: subscribed() reports the confirmation, onRedisDisconnected a connection that fails it
            RedisFuture<Void> sent = subscribe ? commands.subscribe(channel) : commands.unsubscribe(channel);
        } catch (RedisException e) {
            // the connection is ending: Lettuce reconnects it and subscribes the channels again
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            client.removeListener(drops);
        }
    }
}
