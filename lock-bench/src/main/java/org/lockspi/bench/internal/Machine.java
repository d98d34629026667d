package org.lockspi.bench.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the run ran on. */
final class Machine {
    private Machine() {
    }

    static String describe() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        long memory = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean) {
            memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getTotalMemorySize() >> 30;
        }
        return cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores visible, "
                + (memory < 0 ? "?" : memory) + " GiB memory, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " (" + System.getProperty("os.arch") + ")";
    }

    /** @return the load averages from /proc/loadavg, or "unknown" */
    static String load() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + ", " + parts[1] + ", " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", "
                + ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X")).reduce((a, b) -> a + " " + b).orElse("default heap")
                + ", " + ManagementFactory.getGarbageCollectorMXBeans().get(0).getName() + " GC";
    }
}
