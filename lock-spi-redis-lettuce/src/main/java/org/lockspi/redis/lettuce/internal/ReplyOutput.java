package org.lockspi.redis.lettuce.internal;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A script's reply as the recipe reads it ({@link org.lockspi.redis.recipe.RedisOps#evalsha}): an integer as a Long,
 * a string as a String, an array as a List (nested as they come), nil as null, whatever the reply's shape, which
 * Lettuce's own script outputs fix in advance.
 */
final class ReplyOutput extends CommandOutput<String, String, Object> {
    private final Deque<List<Object>> stack = new ArrayDeque<>();
    private List<Object> current;
    private int depth;

    ReplyOutput() {
        super(StringCodec.UTF8, null);
    }

    private void add(Object value) {
        if (current == null) {
            output = value;
        } else {
            current.add(value);
        }
    }

    @Override
    public void set(ByteBuffer bytes) {
        add(bytes == null ? null : StringCodec.UTF8.decodeValue(bytes));
    }

    @Override
    public void set(long integer) {
        add(integer);
    }

    @Override
    public void multi(int count) {
        List<Object> array = new ArrayList<>(Math.max(count, 0));
        if (current == null) {
            output = array;
        } else {
            current.add(array);
            stack.push(current);
            depth++;
        }
        current = array;
    }

    /** {@code depth}: the arrays still open once an element completed (the outermost one counts 1). */
    @Override
    public void complete(int depth) {
        if (depth > 0 && depth <= this.depth) {
            current = stack.pop();
            this.depth--;
        }
    }
}
