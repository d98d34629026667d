package org.lockspi.soak;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.LoggerFactory;

/**
 * The log lines at {@code WARN} and above that reach Logback's root logger while attached (lockspi's
 * {@code System.Logger} lines come through {@code java.util.logging} and Spring Boot's bridge, as in any Spring Boot
 * application), each with the {@code System.nanoTime()} it was logged at and whether it carries a stack trace.
 * Attach it once Spring Boot has set Logback up (it resets Logback when it initialises logging).
 */
final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    /** Where a line comes from. */
    enum Source {
        /** lockspi's engine and providers ({@code org.lockspi.*} other than the starter's). */
        LOCKSPI,
        /** The starter's WARN line for the first run or call of an outage skipped because the lock server failed. */
        STARTER_SKIP,
        /** The starter's other lines ({@code org.lockspi.spring.*}). */
        STARTER,
        /** The client libraries (ZooKeeper, Curator, ZkClient, Jedis) and anything else of the application. */
        CLIENT
    }

    /**
     * One line.
     *
     * @param nanos  when it was logged ({@code System.nanoTime()})
     * @param stack  whether it carries a stack trace
     */
    record Line(long nanos, Level level, String logger, String thread, String message, boolean stack) {

        Source source() {
            if (logger.startsWith("org.lockspi.spring.")) {
                return message.startsWith("skipped ") && message.contains("the lock server failed")
                        ? Source.STARTER_SKIP : Source.STARTER;
            }
            return logger.startsWith("org.lockspi.") ? Source.LOCKSPI : Source.CLIENT;
        }

        @Override
        public String toString() {
            return level + " " + logger + " [" + thread + "] " + message + (stack ? " (+stack trace)" : "");
        }
    }

    /**
     * Loggers of the lock servers the soak runs in this JVM (the in-process ZooKeeper server); an application's
     * lock server runs elsewhere, so their lines are not the application's.
     */
    private static final String SERVER_LOGGERS = "org.apache.zookeeper.server.";

    private final Queue<Line> lines = new ConcurrentLinkedQueue<>();
    private final Logger root;

    private LogCapture(Logger root) {
        this.root = root;
    }

    /** @return a capture attached to the root logger of Logback's context */
    static LogCapture attach() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LogCapture capture = new LogCapture(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME));
        capture.setContext(context);
        capture.setName("lockspi-soak");
        capture.start();
        capture.root.addAppender(capture);
        return capture;
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (!event.getLevel().isGreaterOrEqual(Level.WARN) || event.getLoggerName().startsWith(SERVER_LOGGERS)) {
            return;
        }
        lines.add(new Line(System.nanoTime(), event.getLevel(), event.getLoggerName(), event.getThreadName(),
                event.getFormattedMessage(), event.getThrowableProxy() != null));
    }

    /** @return the lines logged from {@code from} (inclusive) to {@code to} (exclusive), {@code System.nanoTime()} */
    List<Line> between(long from, long to) {
        List<Line> found = new ArrayList<>();
        for (Line line : lines) {
            if (line.nanos - from >= 0 && line.nanos - to < 0) {
                found.add(line);
            }
        }
        return found;
    }

    @Override
    public void close() {
        root.detachAppender(this);
        stop();
    }
}
