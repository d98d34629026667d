package org.lockspi.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.lockspi.LockService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code list <uri> [prefix]}: the names of the locks with a holder or a waiter. */
@Command(name = "list", mixinStandardHelpOptions = true, versionProvider = LockCli.Version.class,
        description = "The locks that have a holder or a waiter, one name a line, sorted.",
        exitCodeOnInvalidInput = LockCli.USAGE, exitCodeOnExecutionException = LockCli.FAILURE,
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
                LockCli.EXIT_OK, LockCli.EXIT_FREE, LockCli.EXIT_USAGE, LockCli.EXIT_UNREACHABLE,
                LockCli.EXIT_FAILURE})
final class ListCommand implements Callable<Integer> {
    @Mixin
    private ConnectionOptions connection;

    @Parameters(index = "1", arity = "0..1", paramLabel = "[prefix]", defaultValue = "",
            description = "only names starting with it, e.g. jobs/ (default: all)")
    private String prefix;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        List<String> names;
        try (LockService service = connection.open()) {
            names = service.list(prefix);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (connection.json) {
            out.println(Output.json(names));
        } else {
            names.forEach(out::println);
        }
        out.flush();
        if (names.isEmpty() && !connection.json) {
            spec.commandLine().getErr().println("lockspi: no lock with a holder or a waiter"
                    + (prefix.isEmpty() ? "" : " under '" + prefix + "'") + " at " + connection.shownUri());
        }
        return names.isEmpty() ? LockCli.FREE : LockCli.OK;
    }
}
