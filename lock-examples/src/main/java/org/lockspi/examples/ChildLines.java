package org.lockspi.examples;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.lockspi.tck.support.ChildJvm;

/**
 * The output lines of several child JVMs in one queue, in the order they arrived, for a parent that waits for
 * "whichever child says it first" (the next poller of the scheduler example). One reader thread per child owns that
 * child's lines: do not call {@link ChildJvm#awaitLine} on a child given here.
 */
final class ChildLines {
    /** The child's output ended (it exited or was killed). */
    static final String ENDED = "\u0000ENDED";
    /** No child reads for this long without a line; long enough never to matter. */
    private static final Duration FOREVER = Duration.ofDays(365);

    /**
     * One line.
     *
     * @param child    the child that wrote it
     * @param line     the line, or {@link #ENDED}
     * @param received when the parent read it, {@link System#nanoTime()}
     */
    record Line(ChildJvm child, String line, long received) {
    }

    private final BlockingQueue<Line> queue = new LinkedBlockingQueue<>();

    /** Starts reading {@code children}. */
    ChildLines(List<ChildJvm> children) {
        for (ChildJvm child : children) {
            Thread t = new Thread(() -> read(child), "lines-of-" + child.pid());
            t.setDaemon(true);
            t.start();
        }
    }

    private void read(ChildJvm child) {
        while (true) {
            String line;
            try {
                line = child.awaitLine(FOREVER, ""); // every line starts with ""
            } catch (AssertionError ended) {
                // ChildJvm's way of saying that the output ended: the child exited or was killed
                queue.add(new Line(child, ENDED, System.nanoTime()));
                return;
            } catch (IllegalStateException interrupted) {
                return;
            }
            queue.add(new Line(child, line, System.nanoTime()));
        }
    }

    /**
     * @param timeout how long to wait
     * @return the next line of any child
     * @throws AssertionError if none comes within {@code timeout}
     */
    Line next(Duration timeout) {
        try {
            Line line = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("no child wrote a line within " + timeout);
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a child's line", e);
        }
    }
}
