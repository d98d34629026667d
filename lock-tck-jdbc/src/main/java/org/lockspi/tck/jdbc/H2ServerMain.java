package org.lockspi.tck.jdbc;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.h2.tools.Server;

/**
 * An H2 TCP server in a child JVM, so that it can be killed with {@code SIGKILL}:
 * {@code H2ServerMain <port> <base directory> <database>}. Prints {@code READY <port>} once it listens, or {@code ERROR ...};
 * stops when its standard input ends (the parent died or closed it) or says {@code stop}; on {@code checkpoint} it
 * writes every committed change to the file and prints {@code CHECKPOINTED}.
 */
public final class H2ServerMain {
    private H2ServerMain() {
    }

    /**
     * @param args the port, the base directory of the databases and the database to open
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        Server server;
        try {
            server = Server.createTcpServer("-tcpPort", args[0], "-baseDir", args[1], "-ifNotExists").start();
        } catch (Exception e) {
            System.out.println("ERROR " + e.getMessage().lines().findFirst().orElse(""));
            System.out.flush();
            throw e;
        }
        // Open the database with commits written to its file every few ms (WRITE_DELAY 1; 0 would stop the writer;
        // it is not kept in the file, so it is set at every start), and keep it open while the server runs.
        try (Connection keep = DriverManager.getConnection("jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/"
                + args[2] + ";WRITE_DELAY=1", "sa", "")) {
            try (Statement s = keep.createStatement()) {
                s.execute("SET WRITE_DELAY 1");
            }
            System.out.println("READY " + server.getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.strip().equals("stop")) {
                    break;
                }
                if (line.strip().equals("checkpoint")) {
                    try (Statement s = keep.createStatement()) {
                        s.execute("CHECKPOINT");
                    }
                    System.out.println("CHECKPOINTED");
                    System.out.flush();
                }
            }
        }
        server.stop();
    }
}
