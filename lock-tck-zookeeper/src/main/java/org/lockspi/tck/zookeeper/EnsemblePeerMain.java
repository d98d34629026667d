package org.lockspi.tck.zookeeper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.StringJoiner;
import org.apache.zookeeper.server.ServerCnxn;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * One member of the {@link ZooKeeperEnsembleBackend}'s ensemble, run in a child JVM: a real {@link QuorumPeer}
 * started from a generated configuration. Arguments: {@code <myid> <dataDir> <tickMs> <member1> <member2>
 * <member3>}, each member as {@code clientPort:quorumPort:electionPort} on {@code 127.0.0.1}.
 *
 * <p>It writes one line to standard output on each change of its role, so the parent knows who leads without
 * asking the network: {@code STATE <LOOKING|LEADING|FOLLOWING|OBSERVING>} when the peer's state changes, and
 * {@code SERVING <LEADING|FOLLOWING>} once it has synchronised with the quorum and serves clients (ZAB's
 * broadcast phase). On the command {@code sessions} (a line on standard input) it prints
 * {@code SESSIONS <id>,<id>...}, the sessions of the clients connected to it, in hexadecimal. It ends when its
 * standard input closes (the parent died) or on {@code SIGKILL}. Any failure prints {@code ERROR <exception>}
 * and exits with 2.
 */
public final class EnsemblePeerMain {

    private EnsemblePeerMain() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("zookeeper.admin.enableServer", "false");
        System.setProperty("zookeeper.forceSync", "no");
        System.setProperty("zookeeper.maxCnxns", "1000");
        if (args.length != 6) {
            System.err.println("usage: <myid> <dataDir> <tickMs> <client:quorum:election> x3");
            System.exit(64);
        }
        Thread watchdog = new Thread(EnsemblePeerMain::exitWhenInputCloses, "ensemble-peer-stdin");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            int myid = Integer.parseInt(args[0]);
            Path dataDir = Path.of(args[1]);
            Files.createDirectories(dataDir);
            Files.writeString(dataDir.resolve("myid"), Integer.toString(myid));
            int tick = Integer.parseInt(args[2]);
            Properties p = new Properties();
            p.setProperty("tickTime", Integer.toString(tick));
            p.setProperty("initLimit", "10");
            p.setProperty("syncLimit", "5");
            p.setProperty("dataDir", dataDir.toString());
            p.setProperty("clientPortAddress", "127.0.0.1");
            p.setProperty("clientPort", args[2 + myid].split(":")[0]);
            p.setProperty("minSessionTimeout", "1000");
            p.setProperty("maxSessionTimeout", "60000");
            p.setProperty("4lw.commands.whitelist", "srvr");
            p.setProperty("admin.enableServer", "false");
            for (int id = 1; id <= 3; id++) {
                String[] ports = args[2 + id].split(":");
                p.setProperty("server." + id, "127.0.0.1:" + ports[1] + ":" + ports[2]);
            }
            QuorumPeerConfig config = new QuorumPeerConfig();
            config.parseProperties(p);
            new Main().runFromConfig(config); // returns when the peer ends
            System.exit(0);
        } catch (Exception | Error e) {
            e.printStackTrace();
            say("ERROR " + e);
            System.exit(2);
        }
    }

    /** Answers commands until standard input closes, then ends the JVM. */
    private static void exitWhenInputCloses() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("sessions")) {
                    say("SESSIONS " + sessions());
                }
            }
        } catch (IOException e) {
            // the parent is gone as well
        }
        System.exit(0);
    }

    private static volatile ServerCnxnFactory clients;

    private static String sessions() {
        ServerCnxnFactory factory = clients;
        StringJoiner ids = new StringJoiner(",");
        if (factory != null) {
            for (ServerCnxn cnxn : factory.getConnections()) {
                if (cnxn.getSessionId() != 0) {
                    ids.add(Long.toHexString(cnxn.getSessionId()));
                }
            }
        }
        return ids.toString();
    }

    private static synchronized void say(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        System.out.write(bytes, 0, bytes.length);
        System.out.flush();
    }

    /** The stock main, with a peer that reports its role changes. */
    private static final class Main extends QuorumPeerMain {
        @Override
        protected QuorumPeer getQuorumPeer() throws javax.security.sasl.SaslException {
            return new ReportingPeer();
        }
    }

    private static final class ReportingPeer extends QuorumPeer {
        private ServerState reported;

        ReportingPeer() throws javax.security.sasl.SaslException {
        }

        @Override
        public void setCnxnFactory(ServerCnxnFactory factory) {
            super.setCnxnFactory(factory);
            clients = factory;
        }

        @Override
        public synchronized void setPeerState(ServerState newState) {
            super.setPeerState(newState);
            if (newState != reported) {
                reported = newState;
                say("STATE " + newState);
            }
        }

        @Override
        public void setZabState(ZabState zabState) {
            super.setZabState(zabState);
            if (zabState == ZabState.BROADCAST) {
                say("SERVING " + getPeerState());
            }
        }
    }
}
