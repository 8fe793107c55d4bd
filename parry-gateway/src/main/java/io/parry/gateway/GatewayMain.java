package io.parry.gateway;

import io.parry.gateway.internal.config.ConfigCheck;
import io.parry.gateway.internal.demo.DemoCertificate;
import io.parry.gateway.internal.demo.DemoHttps;
import io.parry.gateway.internal.demo.TodoDemo;
import io.parry.gateway.internal.process.ProcessSignals;
import io.parry.gateway.internal.process.StartupWarmer;
import io.parry.gateway.internal.reload.ReloadTrigger;
import io.parry.micrometer.WebSocketMetrics;
import io.parry.server.TlsOptions;
import io.parry.startup.ConsoleLogging;
import io.parry.startup.Startup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's command line, the executable jar's main class.
 *
 * <pre>
 * java -jar parry-gateway.jar                  the demo: /hello, and /api/todos proxied to the demo todo service
 * java -jar parry-gateway.jar gateway.yaml     the gateway on this configuration
 * java -jar parry-gateway.jar --check gateway.yaml   validates the file and exits (0 when valid)
 * </pre>
 *
 * An invalid configuration at start-up prints its errors and exits with status 1. SIGHUP reloads the
 * configuration; SIGTERM drains (readiness turns false, requests in flight finish, up to {@code
 * GRACE_SECONDS}, default 10) and exits with status 0.
 */
public final class GatewayMain {
    private static final String USAGE = "usage: java -jar parry-gateway.jar [config.yaml | --check config.yaml]";
    private static final int USAGE_STATUS = 2;
    private static final int FAILED_STATUS = 1;
    private static final Duration DEMO_CHECK_TIMEOUT = Duration.ofSeconds(1);
    /** The {@code route} tag of the demo service's own echo sessions, the upstream side of route ws-echo. */
    private static final String DEMO_ECHO_ROUTE = "demo-echo";

    private GatewayMain() {}

    /** Runs the command line. */
    public static void main(String[] args) {
        long mainStarted = System.nanoTime();
        Startup.prepare();
        if (args.length == 2 && args[0].equals("--check")) {
            System.exit(ConfigCheck.run(Path.of(args[1]), System.getenv(), System.out, System.err));
        }
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            System.exit(0);
        }
        if (args.length > 1 || (args.length == 1 && args[0].startsWith("-"))) {
            System.err.println(USAGE);
            System.exit(USAGE_STATUS);
        }
        serve(args.length == 0 ? null : Path.of(args[0]), mainStarted);
    }

    /** Serves the file's configuration, or the demo's when there is no file. */
    private static void serve(Path file, long mainStarted) {
        StartupWarmer warmer = StartupWarmer.start();
        Logger log = LoggerFactory.getLogger(GatewayMain.class);
        warmer.loggingReady();
        TodoDemo demo;
        Gateway gateway;
        int httpsPort = -1;
        try {
            demo = file == null ? TodoDemo.bind() : null;
            httpsPort = demo == null ? -1 : DemoHttps.port(System.getenv());
            gateway = start(file, demo);
        } catch (RuntimeException e) {
            log.error("The gateway did not start: {}", e.getMessage());
            System.exit(FAILED_STATUS);
            return;
        }
        installSignals(gateway, demo, grace());
        if (demo == null) {
            logReady(log, mainStarted);
        } else {
            startHttps(httpsPort, gateway, log);
            startTodoService(demo, gateway.port(), log, mainStarted);
        }
    }

    /** The gateway of the file, or the demo's: ready once the demo's todo service, started after it, listens. */
    private static Gateway start(Path file, TodoDemo demo) {
        Gateway.Builder builder = demo == null
                ? Gateway.builder(file)
                : Gateway.builder(demo.source(System.getenv()))
                        .readinessCheck("demo", demo.readiness(), DEMO_CHECK_TIMEOUT);
        if (ConsoleLogging.configured()) {
            // Many lines a write straight to stdout, not one write each through Logback's console appender.
            builder.accessLogOutput(System.out);
        }
        Gateway gateway = builder.start();
        if (demo != null) {
            gateway.bindMeters(new WebSocketMetrics(DEMO_ECHO_ROUTE, demo.echoCounters()));
        }
        return gateway;
    }

    /** Starts the demo's HTTPS listener on a thread of its own, once the gateway is ready. */
    private static void startHttps(int httpsPort, Gateway gateway, Logger log) {
        if (httpsPort < 0) {
            log.info(
                    "Demo: port {} is taken and HTTPS_PORT is not set, so the demo runs without HTTPS",
                    DemoHttps.DEFAULT_PORT);
            return;
        }
        Thread thread = new Thread(
                () -> {
                    try {
                        DemoCertificate certificate = DemoCertificate.generate();
                        int port = gateway.startExtraListener(
                                options -> options.port(httpsPort).tls(TlsOptions.of(certificate.tls())));
                        log.info(
                                "Demo HTTPS on https://localhost:{} with a self-signed certificate for localhost,"
                                        + " 127.0.0.1 and ::1; SHA-256 fingerprint {}",
                                port,
                                certificate.fingerprint());
                    } catch (RuntimeException e) {
                        if (gateway.isStopping()) {
                            // A stop that came before the listener is not a failure of the listener.
                            log.info("Demo: HTTPS not started, the gateway is stopping");
                        } else {
                            log.error(
                                    "The demo's HTTPS listener did not start on port {}: {}",
                                    httpsPort,
                                    e.getMessage());
                        }
                    }
                },
                "parry-demo-https");
        thread.setDaemon(true);
        thread.start();
    }

    private static void startTodoService(TodoDemo demo, int port, Logger log, long mainStarted) {
        demo.start().whenComplete((ignored, failure) -> {
            if (failure != null) {
                log.error(
                        "The demo's todo service on port {} could not be set up; /api/todos fails",
                        demo.port(),
                        failure);
            } else {
                logReady(log, mainStarted);
                log.info(
                        "Demo: try http://localhost:{}/hello and http://localhost:{}/api/todos (the todo service on"
                                + " port {})",
                        port,
                        port,
                        demo.port());
                log.info(
                        "Demo: /api/private wants a JWT; try curl -H 'Authorization: Bearer {}' http://localhost:{}/api/private",
                        demo.token(),
                        port);
            }
        });
    }

    private static void logReady(Logger log, long mainStarted) {
        log.info("Ready {} ms after main() began", (System.nanoTime() - mainStarted) / 1_000_000);
    }

    private static void installSignals(Gateway gateway, TodoDemo demo, Duration grace) {
        Runnable stop = () -> {
            gateway.stop(grace);
            if (demo != null) {
                demo.close();
            }
        };
        // The hook covers Ctrl-C and System.exit; stopping twice does nothing.
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "parry-shutdown"));
        ProcessSignals.install("HUP", () -> gateway.reload(ReloadTrigger.SIGHUP));
        // SIGTERM drains on a thread of its own, then exits 0: the JVM's default would exit 143. A
        // second SIGTERM, as supervisors that signal the whole process group send, must not cut it short.
        AtomicBoolean terminating = new AtomicBoolean();
        ProcessSignals.install("TERM", () -> {
            if (terminating.compareAndSet(false, true)) {
                new Thread(
                                () -> {
                                    stop.run();
                                    System.exit(0);
                                },
                                "parry-sigterm")
                        .start();
            }
        });
    }

    private static Duration grace() {
        return Duration.ofSeconds(Long.parseLong(System.getenv().getOrDefault("GRACE_SECONDS", "10")));
    }
}
