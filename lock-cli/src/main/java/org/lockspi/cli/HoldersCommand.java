package org.lockspi.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code holders <uri> <name>}: one lock's holders and waiters. */
@Command(name = "holders", mixinStandardHelpOptions = true, versionProvider = LockCli.Version.class,
        description = "Who holds the lock, since when and with which fencing token, and how many wait.",
        exitCodeOnInvalidInput = LockCli.USAGE, exitCodeOnExecutionException = LockCli.FAILURE,
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
                LockCli.EXIT_OK, LockCli.EXIT_FREE, LockCli.EXIT_USAGE, LockCli.EXIT_UNREACHABLE,
                LockCli.EXIT_FAILURE})
final class HoldersCommand implements Callable<Integer> {
    @Mixin
    private ConnectionOptions connection;

    @Parameters(index = "1", paramLabel = "<name>", description = "the lock's name, e.g. jobs/nightly-report")
    private String name;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        LockInfo info;
        String provider;
        try (LockService service = connection.open()) {
            info = service.inspect(name);
            provider = service.providerName();
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean zooKeeper = connection.isZooKeeper();
        out.print(connection.json ? Output.json(info, provider, zooKeeper) + "\n"
                : Output.text(info, connection.shownUri(), provider, Instant.now(), zooKeeper));
        out.flush();
        return info.isHeld() || info.waiters() > 0 ? LockCli.OK : LockCli.FREE;
    }
}
