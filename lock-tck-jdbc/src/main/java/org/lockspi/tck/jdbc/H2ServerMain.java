package org.lockspi.tck.jdbc;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.h2.tools.Server;

/**
 * An H2 TCP server in a child JVM, so that it can be killed with {@code SIGKILL}:
 * {@code H2ServerMain <port> <base directory> <database>}. Prints {@code READY <port>} once it listens, or {@code ERROR ...};
 * stops when its standard input ends (the parent died or closed it) or says {@code stop}; on {@code shutdown} it stops
 * the server (every client's session ends), closes the database with every committed change in its file and prints
 * {@code SHUT}, to be killed then.
 */
public final class H2ServerMain {
    private H2ServerMain() {
    }

    /**
     * @param args the port, the base directory of the databases and the database to open
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        // The database is opened in this JVM first and kept open: the TCP server's sessions share it, and on
        // "shutdown" it is closed here, after the server and its sessions, with every committed change in its file.
        // Commits are written every few ms (WRITE_DELAY 1; it is not kept in the file, so it is set at every start).
        String file = Path.of(args[1], args[2]).toAbsolutePath().toString();
        Connection keep = DriverManager.getConnection("jdbc:h2:file:" + file + ";WRITE_DELAY=1", "sa", "");
        Server server;
        try {
            server = Server.createTcpServer("-tcpPort", args[0], "-baseDir", args[1], "-ifNotExists").start();
        } catch (Exception e) {
            System.out.println("ERROR " + e.getMessage().lines().findFirst().orElse(""));
            System.out.flush();
            keep.close();
            throw e;
        }
        System.out.println("READY " + server.getPort());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.strip().equals("stop")) {
                break;
            }
            if (line.strip().equals("shutdown")) {
                server.stop(); // no new connection, and every client session ends as in a crash
                try (Statement s = keep.createStatement()) {
                    s.execute("SHUTDOWN");
                }
                System.out.println("SHUT");
                System.out.flush();
                return;
            }
        }
        server.stop();
        keep.close();
    }
}
