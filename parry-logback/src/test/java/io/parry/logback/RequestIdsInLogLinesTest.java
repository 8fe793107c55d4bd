package io.parry.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import io.parry.http.HttpResponse;
import io.parry.logback.internal.RequestMdcAdapter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.RouteSpec;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs twice (see the pom): with this module's provider, whose MDC answers the ids, and with
 * Logback's own, into whose MDC the server puts them. Log lines must carry the same ids either way.
 */
class RequestIdsInLogLinesTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";

    private static final org.slf4j.Logger handlerLog = LoggerFactory.getLogger("test.handler");
    private static final org.slf4j.Logger asyncLog = LoggerFactory.getLogger("test.async");

    /** Each event's MDC as the appender read it, by message; the async appender reads it on its own thread. */
    private static final Map<String, CompletableFuture<Map<String, String>>> written = new ConcurrentHashMap<>();

    private static final Handler LOGS = (ctx, request) -> {
        String message = request.path() + " " + ctx.requestId();
        handlerLog.info(message);
        asyncLog.info(message);
        return HttpResponse.ofText(describe(ctx)).toStage();
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Router.builder()
            .get("/loop", LOGS)
            .get("/blocking", LOGS, RouteSpec::blocking)
            .build());

    private static AsyncAppender async;

    @BeforeAll
    static void recordTheLogLines() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Recorder behindQueue = new Recorder("async ");
        behindQueue.setContext(context);
        behindQueue.start();
        async = new AsyncAppender();
        async.setContext(context);
        async.addAppender(behindQueue);
        async.start();
        Recorder direct = new Recorder("direct ");
        direct.setContext(context);
        direct.start();
        writeOnlyTo(context.getLogger("test.handler"), direct);
        writeOnlyTo(context.getLogger("test.async"), async);
    }

    private static void writeOnlyTo(Logger logger, Appender<ILoggingEvent> appender) {
        logger.setLevel(Level.INFO);
        logger.addAppender(appender);
        logger.setAdditive(false);
    }

    @AfterAll
    static void stopTheAsyncAppender() {
        async.stop();
    }

    @Test
    void usesTheAdapterOfTheProviderNamed() {
        boolean parrys = ParryLogbackProvider.class.getName().equals(System.getProperty("slf4j.provider"));

        assertThat(MDC.getMDCAdapter() instanceof RequestMdcAdapter).isEqualTo(parrys);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/loop", "/blocking"})
    void writesTheIdsWithALineLoggedWhereTheHandlerRuns(String path) throws Exception {
        Map<String, String> seen = get(path);

        assertThat(seen.get("thread").startsWith("parry-loop-")).isEqualTo(path.equals("/loop"));
        assertThat(logged("direct " + path + " " + seen.get("request")))
                .containsEntry("traceId", TRACE_ID)
                .containsEntry("spanId", seen.get("span"))
                .containsEntry("requestId", seen.get("request"));
        assertThat(seen)
                .containsEntry("mdcTrace", TRACE_ID)
                .containsEntry("mdcSpan", seen.get("span"))
                .containsEntry("mdcRequest", seen.get("request"));
    }

    @Test
    void keepsTheIdsOfALineWrittenLaterByAnAsyncAppender() throws Exception {
        Map<String, String> seen = get("/loop");

        assertThat(logged("async /loop " + seen.get("request")))
                .containsEntry("traceId", TRACE_ID)
                .containsEntry("spanId", seen.get("span"))
                .containsEntry("requestId", seen.get("request"));
    }

    @Test
    void keepsKeysTheApplicationPutsBesideTheIds() throws Exception {
        MDC.put("tenant", "blue");
        try {
            assertThat(MDC.get("tenant")).isEqualTo("blue");
            assertThat(MDC.get("traceId")).isNull();
            assertThat(MDC.getCopyOfContextMap()).containsOnly(Map.entry("tenant", "blue"));
        } finally {
            MDC.remove("tenant");
        }
    }

    private static Map<String, String> logged(String message) throws Exception {
        return written.computeIfAbsent(message, key -> new CompletableFuture<>())
                .get(5, TimeUnit.SECONDS);
    }

    private static String describe(RequestContext ctx) {
        return String.join(
                " ",
                "span=" + ctx.traceContext().spanId(),
                "request=" + ctx.requestId(),
                "mdcTrace=" + MDC.get("traceId"),
                "mdcSpan=" + MDC.get("spanId"),
                "mdcRequest=" + MDC.get("requestId"),
                "thread=" + Thread.currentThread().getName());
    }

    private static Map<String, String> get(String path) {
        try (RawConnection connection = server.connect()) {
            connection.send("GET " + path + " HTTP/1.1\nHost: a\ntraceparent: " + TRACEPARENT + "\n\n");
            Map<String, String> seen = new HashMap<>();
            for (String word : connection.readResponse().bodyText().split(" ")) {
                int equals = word.indexOf('=');
                seen.put(word.substring(0, equals), word.substring(equals + 1));
            }
            return seen;
        }
    }

    /** Completes the future of each event's message with the MDC it read, on the thread that writes it. */
    private static final class Recorder extends AppenderBase<ILoggingEvent> {
        private final String prefix;

        Recorder(String prefix) {
            this.prefix = prefix;
        }

        @Override
        protected void append(ILoggingEvent event) {
            written.computeIfAbsent(prefix + event.getFormattedMessage(), key -> new CompletableFuture<>())
                    .complete(Map.copyOf(event.getMDCPropertyMap()));
        }
    }
}
