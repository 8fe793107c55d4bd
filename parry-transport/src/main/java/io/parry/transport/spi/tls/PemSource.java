package io.parry.transport.spi.tls;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * PEM text: a file, read again when its modification time changes, or text held in memory, which
 * never changes. A {@code toString} never shows the text, which may be a private key.
 */
public sealed interface PemSource permits PemSource.File, PemSource.Text {

    /** The PEM bytes; a file is read on each call, so call it off the event loop. */
    byte[] read() throws IOException;

    /** The file's modification time in milliseconds, or 0 for text in memory. */
    long lastModified();

    /** PEM in a file. */
    record File(Path path) implements PemSource {
        public File {
            requireNonNull(path, "path");
        }

        @Override
        public byte[] read() throws IOException {
            return Files.readAllBytes(path);
        }

        @Override
        public long lastModified() {
            try {
                return Files.getLastModifiedTime(path).toMillis();
            } catch (IOException e) {
                return -1;
            }
        }

        @Override
        public String toString() {
            return path.toString();
        }
    }

    /** PEM held in memory, for tests and generated certificates. */
    record Text(String pem) implements PemSource {
        public Text {
            requireNonNull(pem, "pem");
        }

        @Override
        public byte[] read() {
            return pem.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public long lastModified() {
            return 0;
        }

        @Override
        public String toString() {
            return "PEM in memory";
        }
    }
}
