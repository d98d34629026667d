package org.lockspi.tck.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A temporary directory deleted, with its contents, on {@link #close()}. */
public final class TempDir implements AutoCloseable {
    private final Path path;

    private TempDir(Path path) {
        this.path = path;
    }

    /**
     * @return a new empty directory under the system's temporary directory
     * @throws UncheckedIOException if it cannot be created
     */
    public static TempDir create() {
        try {
            return new TempDir(Files.createTempDirectory("lockspi-tck-"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory", e);
        }
    }

    /** @return the directory */
    public Path path() {
        return path;
    }

    /** Deletes the directory and its contents. Idempotent. */
    @Override
    public void close() {
        try {
            FileTrees.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
