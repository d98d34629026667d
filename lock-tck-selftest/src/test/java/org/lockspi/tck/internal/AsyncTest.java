package org.lockspi.tck.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What the kit counts as a waiting thread: parked, blocked in I/O, or queued on the server; never spinning. */
class AsyncTest {

    @Test
    void aThreadBlockedInAPipeReadIsWaiting() throws IOException, InterruptedException {
        Pipe pipe = Pipe.open();
        try {
            Async<Integer> reader = Async.start("pipe-reader", () -> pipe.source().read(ByteBuffer.allocate(1)));
            reader.awaitWaiting(Duration.ofSeconds(2), () -> false);
            assertEquals(Thread.State.RUNNABLE, reader.thread().getState(), "a read is RUNNABLE, not parked");
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            assertEquals(1, reader.get(Duration.ofSeconds(2)));
        } finally {
            pipe.sink().close();
            pipe.source().close();
        }
    }

    @Test
    void aSpinningThreadIsWaitingOnlyOnceItsEntryShows() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Async<Void> spinner = Async.start("spinner", () -> {
            while (!stop.get()) {
                Thread.onSpinWait();
            }
            return null;
        });
        try {
            AssertionError notWaiting = assertThrows(AssertionError.class,
                    () -> spinner.awaitWaiting(Duration.ofMillis(300), () -> false));
            assertTrue(notWaiting.getMessage().contains("was not waiting within PT0.3S"), notWaiting.getMessage());
            spinner.awaitWaiting(Duration.ofSeconds(2), () -> true);
        } finally {
            stop.set(true);
        }
        spinner.get(Duration.ofSeconds(2));
    }

    @Test
    void aThreadThatReturnedIsNotWaiting() throws InterruptedException {
        Async<String> done = Async.start("done", () -> "value");
        done.join(Duration.ofSeconds(2));
        AssertionError ended = assertThrows(AssertionError.class,
                () -> done.awaitWaiting(Duration.ofSeconds(2), () -> true));
        assertTrue(ended.getMessage().contains("ended: returned value"), ended.getMessage());
    }
}
