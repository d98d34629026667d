package org.lockspi.tck.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A child for the harness's own tests: prints {@code UP}, echoes lines as {@code ECHO <line>}, ends on EOF. */
public final class EchoMain {
    private EchoMain() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("noise before");
        System.out.println("UP " + String.join(" ", args));
        System.err.println("something on stderr");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("exit")) {
                System.exit(7);
            }
            System.out.println("ECHO " + line);
        }
    }
}
