package io.parry.annotations.processor;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/** Compiles sources with the processor through {@code javax.tools}, as a user's build would, into a directory of its own. */
final class InMemoryCompiler {
    private InMemoryCompiler() {}

    /** What a compilation left: whether it succeeded, its errors, and where its classes and generated sources are. */
    record Result(boolean success, List<String> errors, Path classes, Path generated) {
        String generatedSource(String qualifiedName) {
            try {
                return Files.readString(generated.resolve(qualifiedName.replace('.', '/') + ".java"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        ClassLoader classLoader() {
            try {
                return new URLClassLoader(new URL[] {classes.toUri().toURL()}, InMemoryCompiler.class.getClassLoader());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Compiles sources given as qualified class name to text, against the test class path. */
    static Result compile(Map<String, String> sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path root = Files.createTempDirectory("parry-processor-test");
        Path classes = Files.createDirectories(root.resolve("classes"));
        Path generated = Files.createDirectories(root.resolve("generated"));
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, UTF_8)) {
            files.setLocation(StandardLocation.CLASS_OUTPUT, List.of(classes.toFile()));
            files.setLocation(StandardLocation.SOURCE_OUTPUT, List.of(generated.toFile()));
            List<JavaFileObject> units = new ArrayList<>();
            sources.forEach((name, text) -> units.add(new Source(name, text)));
            List<String> options =
                    List.of("--release", "17", "-classpath", System.getProperty("java.class.path"), "-Xlint:all");
            JavaCompiler.CompilationTask task = javac.getTask(null, files, diagnostics, options, null, units);
            task.setProcessors(List.of(new ControllerProcessor()));
            boolean success = task.call();
            List<String> errors = diagnostics.getDiagnostics().stream()
                    .filter(diagnostic -> diagnostic.getKind() == Diagnostic.Kind.ERROR)
                    .map(diagnostic -> diagnostic.getMessage(Locale.ROOT))
                    .collect(Collectors.toList());
            return new Result(success, errors, classes, generated);
        }
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String qualifiedName, String text) {
            super(URI.create("string:///" + qualifiedName.replace('.', '/') + ".java"), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }
}
