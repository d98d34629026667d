package org.lockspi.tck.zookeeper;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * Run in a child JVM by {@link ZooKeeperSecurityTck}: opens a lock service with secrets in its URI, with every log of
 * the JVM at its most detailed (slf4j-simple at {@code debug}, ZooKeeper's and Curator's logs among them) written to
 * one file with standard error, takes and releases a lock, prints the service and the lease, opens a URI that is
 * refused and prints that exception's stack trace. The parent then searches the file for the secrets.
 *
 * <p>Arguments: {@code <logFile> <provider> <uri> <refusedUri>}. Writes {@code DONE} to standard output at the end;
 * a failure of the good URI prints {@code ERROR <exception>} and exits with 2.
 */
public final class SecretProbeMain {

    private SecretProbeMain() {
    }

    /**
     * @param args see the class description
     * @throws IOException if the log file cannot be opened
     */
    public static void main(String[] args) throws IOException {
        PrintStream log = new PrintStream(new FileOutputStream(args[0], true), true, StandardCharsets.UTF_8);
        System.setErr(log); // before any logger starts: they all write here
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        try (LockService locks = Locks.open(args[2], args[1])) {
            log.println("service: " + locks);
            try (Lease lease = locks.mutex("secret-probe").acquire(Duration.ofSeconds(20))) {
                log.println("lease: " + lease);
            }
        } catch (RuntimeException | InterruptedException e) {
            e.printStackTrace();
            System.out.println("ERROR " + e);
            System.exit(2);
        }
        try {
            Locks.open(args[3], args[1]).close();
            log.println("the refused URI was accepted");
        } catch (RuntimeException e) {
            e.printStackTrace();
        }
        System.out.println("DONE");
        System.out.flush();
        System.exit(0);
    }
}
