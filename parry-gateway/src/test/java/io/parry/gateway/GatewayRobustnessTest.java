package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An HTTP/1.1 robustness suite run through the gateway as users run it: the default breaker and
 * outlier detection, a 1 MiB body limit, one route proxying everything to one upstream that records
 * what it receives. Malformed, smuggling, oversized and slow requests (RFC 9112 and the known
 * request-smuggling cases) each get their status or a closed connection within a bound; the
 * upstream never receives a smuggled or differently framed request; and after the whole suite the
 * upstream is still in rotation and a normal request succeeds.
 *
 * <p>Each case's target starts with {@code /c/<case>/}; a request the client hides inside another
 * (the smuggling cases) targets {@code /smuggled}, which the upstream must never see. The timeouts
 * are shorter than the gateway's defaults (10 s header read, 5 s idle) only to keep the run short.
 *
 * <p>Some cases break a request body after the proxy began to send it (a malformed chunk, a body
 * over the limit, a client that closes or stalls). Those are the client's failures and must not
 * count against the upstream: without the breaker fix (branch {@code breaker}, client-caused
 * endings recorded as such) they open the default breaker within the suite, and every request
 * after that gets 503.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewayRobustnessTest {
    private static final RecordingUpstream recorder = new RecordingUpstream();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(recorder.handler());

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            limits: { maxBodySize: 1MiB }
            timeouts: { headerRead: 1s, idle: 2s, request: 2s }
            accessLog: off
            upstreams:
              app:
                endpoints: ["127.0.0.1:${UPSTREAM_PORT}"]
            routes:
              - name: all
                match: { prefix: / }
                proxy: { upstream: app }
            """;
    private static final int CLOSE = 0;
    /** Cases whose request must not reach the upstream, checked at the end, when late arrivals would show. */
    private static final Set<String> unseen = ConcurrentHashMap.newKeySet();

    @TempDir
    static Path dir;

    private static TestGateway gateway;
    private static ScheduledExecutorService dribbler;

    @BeforeAll
    static void startGateway() {
        gateway = TestGateway.start(dir, CONFIG, Map.of("UPSTREAM_PORT", Integer.toString(upstream.port())), false);
        dribbler = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void stopGateway() {
        dribbler.shutdownNow();
        gateway.close();
    }

    /**
     * A request the gateway must refuse (or answer itself) without the upstream seeing it: the
     * expected status ({@link #CLOSE} for a close without any response), then a closed connection.
     */
    record Refused(String name, int status, String request) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Refused> refusedRequests() {
        return Stream.of(
                // CL.TE and TE.CL: both framings at once (RFC 9112, section 6.3, point 3).
                refused(
                        "CL.TE",
                        400,
                        "POST /c/cl-te HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused(
                        "TE.CL",
                        400,
                        "POST /c/te-cl HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n"
                                + "Content-Length: 4\r\n\r\n5c\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n0\r\n\r\n"),
                // TE.TE: Transfer-Encoding spelled so that one parser sees chunked and another does not.
                refused(
                        "Transfer-Encoding with a space before the colon",
                        400,
                        "POST /c/te-space HTTP/1.1\r\n" + "Host: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding chunked, identity",
                        400,
                        "POST /c/te-identity HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding xchunked",
                        400,
                        "POST /c/te-x HTTP/1.1\r\nHost: a\r\n" + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding gzip",
                        400,
                        "POST /c/te-gzip HTTP/1.1\r\nHost: a\r\n" + "Transfer-Encoding: gzip\r\n\r\nhello"),
                // RFC 9112, section 6.1: a coding the server does not know, before chunked.
                refused(
                        "Transfer-Encoding gzip, chunked",
                        501,
                        "POST /c/te-gzip-chunked HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding chunked twice in one field",
                        400,
                        "POST /c/te-twice HTTP/1.1\r\n"
                                + "Host: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding chunked in two fields",
                        400,
                        "POST /c/te-two HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding chunked then another",
                        400,
                        "POST /c/te-then HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding quoted",
                        400,
                        "POST /c/te-quoted HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: \"chunked\"\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding folded",
                        400,
                        "POST /c/te-fold HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: identity\r\n chunked\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding with a NUL",
                        400,
                        "POST /c/te-nul HTTP/1.1\r\nHost: a\r\n" + "Transfer-Encoding: chunked\0\r\n\r\n0\r\n\r\n"),
                refused(
                        "Transfer-Encoding in HTTP/1.0",
                        400,
                        "POST /c/te-10 HTTP/1.0\r\n" + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
                // Content-Length (RFC 9110, section 8.6: 1*DIGIT).
                refused(
                        "two equal Content-Length fields",
                        400,
                        "POST /c/cl-dup HTTP/1.1\r\nHost: a\r\n"
                                + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
                refused(
                        "two different Content-Length fields",
                        400,
                        "POST /c/cl-two HTTP/1.1\r\nHost: a\r\n"
                                + "Content-Length: 5\r\nContent-Length: 50\r\n\r\nhello"),
                refused(
                        "a Content-Length list",
                        400,
                        "POST /c/cl-list HTTP/1.1\r\nHost: a\r\n" + "Content-Length: 5, 5\r\n\r\nhello"),
                refused(
                        "Content-Length +5",
                        400,
                        "POST /c/cl-plus HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello"),
                refused("Content-Length -5", 400, "POST /c/cl-minus HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n"),
                refused(
                        "Content-Length in hex",
                        400,
                        "POST /c/cl-hex HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello"),
                refused(
                        "Content-Length 5 5",
                        400,
                        "POST /c/cl-space HTTP/1.1\r\nHost: a\r\nContent-Length: 5 5\r\n\r\nhello"),
                refused("Content-Length empty", 400, "POST /c/cl-empty HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n"),
                refused(
                        "Content-Length that overflows",
                        400,
                        "POST /c/cl-overflow HTTP/1.1\r\nHost: a\r\n"
                                + "Content-Length: 99999999999999999999\r\n\r\nhello"),
                refused(
                        "Content-Length over the body limit",
                        413,
                        "POST /c/cl-large HTTP/1.1\r\nHost: a\r\n" + "Content-Length: 2097152\r\n\r\nhello"),
                // Line endings, control characters, field syntax (RFC 9112, sections 2.2 and 5).
                refused("bare LF line endings", 400, "GET /c/lf HTTP/1.1\nHost: a\n\n"),
                refused("a bare LF after a field", 400, "GET /c/lf-field HTTP/1.1\r\nHost: a\nX: b\r\n\r\n"),
                refused("a bare CR in a value", 400, "GET /c/cr HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n"),
                refused("a NUL in a field name", 400, "GET /c/nul-name HTTP/1.1\r\nHost: a\r\nX\0Y: b\r\n\r\n"),
                refused("a NUL in a field value", 400, "GET /c/nul-value HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n"),
                refused(
                        "a control character in a field value",
                        400,
                        "GET /c/ctl HTTP/1.1\r\nHost: a\r\n" + "X: a\u0001b\r\n\r\n"),
                refused("DEL in a field value", 400, "GET /c/del HTTP/1.1\r\nHost: a\r\nX: a\u007fb\r\n\r\n"),
                refused("a space before the colon", 400, "GET /c/space-colon HTTP/1.1\r\nHost: a\r\nX-A : b\r\n\r\n"),
                refused("a tab before the colon", 400, "GET /c/tab-colon HTTP/1.1\r\nHost: a\r\nX-A\t: b\r\n\r\n"),
                refused("a field without a colon", 400, "GET /c/no-colon HTTP/1.1\r\nHost: a\r\nX-A b\r\n\r\n"),
                refused("a field with an empty name", 400, "GET /c/empty-name HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n"),
                refused("obs-fold", 400, "GET /c/fold HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n"),
                refused(
                        "a first field line that starts with a space",
                        400,
                        "GET /c/first-space HTTP/1.1\r\n" + " Host: a\r\nHost: a\r\n\r\n"),
                // The request line (RFC 9112, section 3).
                refused(
                        "a lowercase version",
                        400,
                        "GET /c/version HTTP/1.1\r\nHost: a\r\n\r\n".replace("HTTP/1.1", "http/1.1")),
                refused("an unsupported version", 505, "GET /c/version2 HTTP/2.0\r\nHost: a\r\n\r\n"),
                refused("no version", 400, "GET /c/no-version\r\nHost: a\r\n\r\n"),
                refused("two spaces in the request line", 400, "GET  /c/two-spaces HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a space after the version", 400, "GET /c/space-after HTTP/1.1 \r\nHost: a\r\n\r\n"),
                refused("a method that is not a token", 400, "G(T /c/method HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a target that is no form", 400, "GET c/no-form HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a space in the target", 400, "GET /c/sp ace HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a control character in the target", 400, "GET /c/ctl\u0001 HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("the asterisk form with GET", 400, "GET * HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("the authority form with GET", 400, "GET a:80 HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("CONNECT", 400, "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n"),
                // Host (RFC 9112, section 3.2).
                refused("no Host", 400, "GET /c/no-host HTTP/1.1\r\n\r\n"),
                refused("two Host fields", 400, "GET /c/two-hosts HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                refused("a Host with a path", 400, "GET /c/host-path HTTP/1.1\r\nHost: a/b\r\n\r\n"),
                refused("a Host with a space", 400, "GET /c/host-space HTTP/1.1\r\nHost: a b\r\n\r\n"),
                refused("a Host with userinfo", 400, "GET /c/host-user HTTP/1.1\r\nHost: u@a\r\n\r\n"),
                // Sizes (RFC 9112, section 3: 414; RFC 6585: 431).
                refused(
                        "a huge request line",
                        414,
                        "GET /c/long/" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused(
                        "a huge field",
                        431,
                        "GET /c/huge-field HTTP/1.1\r\nHost: a\r\nX: " + "a".repeat(20_000) + "\r\n\r\n"),
                refused(
                        "too many fields",
                        431,
                        "GET /c/many HTTP/1.1\r\nHost: a\r\n" + "X-A: b\r\n".repeat(200) + "\r\n"),
                // Chunked bodies whose framing breaks before any byte of data (RFC 9112, section 7.1).
                refused("a chunk size that is not hex", 400, chunked("/c/chunk-zz", "zz\r\nhello\r\n0\r\n\r\n")),
                refused(
                        "a chunk size that overflows",
                        400,
                        chunked("/c/chunk-overflow", "1" + "0".repeat(17) + "\r\nhello\r\n0\r\n\r\n")),
                refused("a negative chunk size", 400, chunked("/c/chunk-negative", "-5\r\nhello\r\n0\r\n\r\n")),
                refused("a chunk size in 0x form", 400, chunked("/c/chunk-0x", "0x5\r\nhello\r\n0\r\n\r\n")),
                refused("an empty chunk size", 400, chunked("/c/chunk-empty", "\r\nhello\r\n0\r\n\r\n")),
                refused("a chunk size with a bare LF", 400, chunked("/c/chunk-lf", "5\nhello\r\n0\r\n\r\n")),
                refused(
                        "chunk extensions over 16 KiB in all",
                        400,
                        chunked(
                                "/c/chunk-ext-sum",
                                ("1;x=" + "y".repeat(1_000) + "\r\na\r\n").repeat(40) + "0\r\n\r\n")),
                refused(
                        "a chunk extension longer than a line",
                        400,
                        chunked("/c/chunk-ext", "5;x=" + "y".repeat(20_000) + "\r\nhello\r\n0\r\n\r\n")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedRequests")
    @Order(1)
    void refusesWithoutReachingTheUpstream(Refused refused) {
        unseen.add(caseTarget(refused.request()));
        try (RawConnection connection = connect()) {
            connection.sendExactly(refused.request());
            if (refused.status() != CLOSE) {
                RawResponse response = connection.readResponse();
                assertThat(response.status()).as(refused.name()).isEqualTo(refused.status());
                assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            }
            assertThat(connection.isClosedByPeer())
                    .as("closed after " + refused.name())
                    .isTrue();
        }
    }

    /** A request the gateway must pass on, framed exactly as the client framed it: the body the upstream must see. */
    record Accepted(String name, String request, String body) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Accepted> acceptedRequests() {
        return Stream.of(
                accepted(
                        "a Content-Length body",
                        "POST /c/ok-cl HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
                        "hello"),
                accepted(
                        "a Content-Length with leading zeros",
                        "POST /c/ok-cl-zeros HTTP/1.1\r\nHost: a\r\n" + "Content-Length: 005\r\n\r\nhello",
                        "hello"),
                accepted("a chunked body", chunked("/c/ok-chunked", "2\r\nhe\r\n3\r\nllo\r\n0\r\n\r\n"), "hello"),
                accepted(
                        "Transfer-Encoding in upper case",
                        "POST /c/ok-te-case HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding: CHUNKED\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                        "hello"),
                accepted(
                        "Transfer-Encoding after a tab",
                        "POST /c/ok-te-tab HTTP/1.1\r\nHost: a\r\n"
                                + "Transfer-Encoding:\tchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                        "hello"),
                accepted("chunk extensions", chunked("/c/ok-ext", "5;a=b;c=\"d\"\r\nhello\r\n0;e\r\n\r\n"), "hello"),
                accepted(
                        "a chunk size with leading zeros",
                        chunked("/c/ok-zeros", "0005\r\nhello\r\n0\r\n\r\n"),
                        "hello"),
                accepted(
                        "upper-case hex in a chunk size",
                        chunked("/c/ok-hex", "A\r\nhellohello\r\n0\r\n\r\n"),
                        "hellohello"),
                accepted(
                        "trailer fields",
                        chunked("/c/ok-trailers", "5\r\nhello\r\n0\r\nX-Checksum: 1\r\n\r\n"),
                        "hello"),
                accepted(
                        "forbidden trailer fields",
                        chunked(
                                "/c/ok-bad-trailers",
                                "5\r\nhello\r\n0\r\n"
                                        + "Content-Length: 50\r\nTransfer-Encoding: chunked\r\nHost: evil\r\n\r\n"),
                        "hello"),
                accepted(
                        "a body that reads like a request",
                        "POST /c/ok-body-request HTTP/1.1\r\nHost: a\r\n"
                                + "Content-Length: 35\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
                        "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"),
                accepted(
                        "a GET with a body",
                        "GET /c/ok-get-body HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
                        "hello"),
                accepted("an empty line before the request line", "\r\nGET /c/ok-crlf HTTP/1.1\r\nHost: a\r\n\r\n", ""),
                accepted("HTTP/1.0 without Host", "GET /c/ok-10 HTTP/1.0\r\n\r\n", ""),
                accepted("the absolute form", "GET http://a/c/ok-absolute HTTP/1.1\r\nHost: a\r\n\r\n", ""),
                accepted("an unknown method", "PURGE /c/ok-method HTTP/1.1\r\nHost: a\r\n\r\n", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedRequests")
    @Order(1)
    void passesOnWhatIsWellFramedAndNothingElse(Accepted accepted) {
        String target = caseTarget(accepted.request());
        try (RawConnection connection = connect()) {
            connection.sendExactly(accepted.request());
            RawResponse response = connection.readResponse();

            assertThat(response.status()).as(accepted.name()).isEqualTo(200);
            assertThat(recorder.seen(target)).singleElement().satisfies(seen -> {
                assertThat(seen.body()).isEqualTo(accepted.body());
                assertThat(seen.fields().toLowerCase()).doesNotContain("host: evil", "content-length: 50");
            });
        }
    }

    @Test
    @Order(1)
    void usesTheAuthorityOfAnAbsoluteFormTargetOverTheHostField() {
        try (RawConnection connection = connect()) {
            connection.sendExactly("GET http://good.test/c/absolute-host HTTP/1.1\r\nHost: evil.test\r\n\r\n");
            RawResponse response = connection.readResponse();

            // RFC 9112, section 3.2.2: the target's authority wins; the upstream never sees the other.
            if (response.status() == 200) {
                assertThat(recorder.seen("/c/absolute-host")).singleElement().satisfies(seen -> assertThat(
                                seen.fields())
                        .contains("host: good.test")
                        .doesNotContain("evil"));
            } else {
                assertThat(response.status()).isEqualTo(400);
            }
        }
    }

    @Test
    @Order(1)
    void keepsTheForwardingFieldsItAddsWhenTheClientNamesThemInConnection() {
        try (RawConnection connection = connect()) {
            connection.sendExactly("GET /c/hop-by-hop HTTP/1.1\r\nHost: a\r\n"
                    + "Connection: keep-alive, Host, X-Forwarded-For, Forwarded, Via, Content-Length\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
        assertThat(recorder.seen("/c/hop-by-hop")).singleElement().satisfies(seen -> assertThat(
                        seen.fields().toLowerCase())
                .contains("host: a\n", "x-forwarded-for: 127.0.0.1", "forwarded: for=127.0.0.1", "via: 1.1"));
    }

    @Test
    @Order(1)
    void answersOptionsAsteriskItself() {
        unseen.add("*");
        try (RawConnection connection = connect()) {
            connection.sendExactly("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
    }

    @Test
    @Order(1)
    void answersPipelinedRequestsInOrderAndRefusesTheSmuggledOne() {
        unseen.add("/c/pipelined-smuggled");
        try (RawConnection connection = connect()) {
            connection.sendExactly("POST /c/pipelined-1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
                    + "GET /c/pipelined-2 HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "POST /c/pipelined-smuggled HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n5c\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n0\r\n\r\n"
                    + "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("seen 5 bytes");
            assertThat(connection.readResponse().bodyText()).isEqualTo("seen 0 bytes");
            assertThat(connection.readResponse().status()).isEqualTo(400);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
        assertThat(recorder.seen("/c/pipelined-1"))
                .singleElement()
                .extracting(RecordingUpstream.Seen::body)
                .isEqualTo("hello");
        assertThat(recorder.seen("/c/pipelined-2")).hasSize(1);
    }

    @Test
    @Order(1)
    void keepsTheConnectionAfterABodyItRead() {
        try (RawConnection connection = connect()) {
            connection.sendExactly(chunked("/c/keep-1", "5\r\nhello\r\n0\r\n\r\n"));
            assertThat(connection.readResponse().status()).isEqualTo(200);
            connection.sendExactly("GET /c/keep-2 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
    }

    @Test
    @Order(1)
    void sendsContinueWhenTheProxyPullsTheBodyAndKeepsTheConnection() {
        try (RawConnection connection = connect()) {
            connection.sendExactly(
                    "POST /c/continue HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n" + "Expect: 100-continue\r\n\r\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(100);

            connection.sendExactly("hello");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("connection")).isNull();

            connection.sendExactly("GET /c/continue-after HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
        assertThat(recorder.seen("/c/continue")).first().satisfies(seen -> {
            assertThat(seen.body()).isEqualTo("hello");
            assertThat(seen.fields().toLowerCase()).doesNotContain("expect");
        });
    }

    @Test
    @Order(1)
    void answersASlowHeaderBlockWith408() {
        unseen.add("/c/slowloris");
        try (RawConnection connection = connect()) {
            connection.sendExactly("GET /c/slowloris HTTP/1.1\r\nHost: a\r\n");
            var dribbling =
                    dribbler.scheduleAtFixedRate(() -> send(connection, "X-A: b\r\n"), 0, 100, TimeUnit.MILLISECONDS);
            try {
                assertThat(connection.readResponse().status()).isEqualTo(408);
                assertThat(connection.isClosedByPeer()).isTrue();
            } finally {
                dribbling.cancel(false);
            }
        }
    }

    @Test
    @Order(1)
    void closesAConnectionThatSendsNothing() {
        try (RawConnection connection = connect()) {
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    /**
     * A client that shuts its sending half after a whole request: the gateway takes the end of its
     * input for the client's leaving (as NGINX does), so it may close without answering; it must
     * not hang, and the upstream must not hold it against anyone.
     */
    @Test
    @Order(1)
    void answersOrClosesWhenAClientHalfClosesAfterItsRequest() {
        try (RawConnection connection = connect()) {
            connection.sendExactly("GET /c/half-close HTTP/1.1\r\nHost: a\r\n\r\n");
            connection.shutdownOutput();
            assertThat(readStatusOrClose(connection)).isIn(200, CLOSE);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    @Order(1)
    void closesOnAHalfClosedIncompleteRequest() {
        unseen.add("/c/half-incomplete");
        try (RawConnection connection = connect()) {
            connection.sendExactly("POST /c/half-incomplete HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhel");
            connection.shutdownOutput();
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    /**
     * Request bodies that break after the proxy began sending them upstream, each far more often
     * than the default breaker's thresholds (10 calls, 50 %) and outlier detection's (5 in a row):
     * the upstream never completes one of them, and it stays in rotation. Only the breaker fix of
     * branch {@code breaker} (client-caused failures do not count against the upstream) makes the
     * rotation assertions pass; the framing assertions hold without it.
     */
    @Test
    @Order(2)
    void clientCausedBodyFailuresNeitherReachTheUpstreamNorTakeItOutOfRotation() {
        List<RawConnection> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                // Slow bodies first, in parallel: each waits out the request timeout.
                RawConnection connection = connect();
                connection.sendExactly("POST /c/broken-slow HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhel");
                slow.add(connection);
            }
            for (int i = 0; i < 12; i++) {
                malformedChunkAfterData();
                closedMidBody();
                chunkedBodyOverTheLimit();
            }
            for (RawConnection connection : slow) {
                assertThat(connection.readResponse().status()).isEqualTo(408);
                assertThat(connection.isClosedByPeer()).isTrue();
            }
        } finally {
            slow.forEach(RawConnection::close);
        }
        assertThat(recorder.seen("/c/broken-")).isEmpty();
        assertInRotation();
    }

    private void malformedChunkAfterData() {
        try (RawConnection connection = connect()) {
            connection.sendExactly(chunked("/c/broken-chunk", "5\r\nhello\r\nzz\r\n"));
            int status = readStatusOrClose(connection);
            assertThat(status).isIn(400, CLOSE);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    private void closedMidBody() {
        try (RawConnection connection = connect()) {
            connection.sendExactly("POST /c/broken-closed HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nhello");
        }
    }

    private void chunkedBodyOverTheLimit() {
        try (RawConnection connection = connect()) {
            String chunk = "8000\r\n" + "a".repeat(0x8000) + "\r\n";
            connection.sendExactly("POST /c/broken-large HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + chunk.repeat(33));
            int status = readStatusOrClose(connection);
            assertThat(status).isIn(413, CLOSE);
            assertThat(connection.isClosedByPeer()).isTrue();
        } catch (UncheckedIOException e) {
            // The gateway may close while the client is still writing the body it refused.
        }
    }

    @Test
    @Order(3)
    void leavesNoSmuggledRequestAndTheUpstreamInRotation() {
        try (RawConnection connection = connect()) {
            connection.sendExactly("GET /c/after HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
        assertThat(recorder.all())
                .extracting(seen -> seen.target().split("\\?", 2)[0])
                .noneMatch(target -> target.contains("smuggled") || unseen.contains(target));
        assertInRotation();
    }

    private static void assertInRotation() {
        JsonNode endpoint = upstreams().at("/upstreams/0/endpoints/0");
        assertThat(endpoint.get("breaker").asText()).as("breaker").isEqualTo("CLOSED");
        assertThat(endpoint.get("healthy").asBoolean()).as("healthy").isTrue();
        assertThat(endpoint.get("ejected").asBoolean()).as("ejected").isFalse();
    }

    private static JsonNode upstreams() {
        try {
            return JSON.readTree(gateway.admin("/admin/upstreams").body());
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RawConnection connect() {
        return RawConnection.open("127.0.0.1", gateway.gateway().port());
    }

    /** The response's status, or {@link #CLOSE} when the gateway closed without one. */
    private static int readStatusOrClose(RawConnection connection) {
        try {
            return connection.readResponse().status();
        } catch (UncheckedIOException | IllegalStateException e) {
            return CLOSE;
        }
    }

    private static void send(RawConnection connection, String text) {
        try {
            connection.sendExactly(text);
        } catch (UncheckedIOException e) {
            // The gateway closed: the dribble is over.
        }
    }

    private static Refused refused(String name, int status, String request) {
        return new Refused(name, status, request);
    }

    private static Accepted accepted(String name, String request, String body) {
        return new Accepted(name, request, body);
    }

    private static String chunked(String target, String body) {
        return "POST " + target + " HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + body;
    }

    /** The path of the case a request's first line names ({@code /c/<case>}), or the whole line when it names none. */
    private static String caseTarget(String request) {
        int lineStart = 0;
        while (request.charAt(lineStart) == '\r' || request.charAt(lineStart) == '\n') {
            lineStart++;
        }
        int lineEnd = request.indexOf('\n', lineStart);
        int start = request.indexOf("/c/", lineStart);
        if (start < 0 || start > lineEnd) {
            return request.substring(lineStart, lineEnd);
        }
        int end = start;
        while (end < lineEnd && " ?\r\n".indexOf(request.charAt(end)) < 0) {
            end++;
        }
        return request.substring(start, end);
    }
}
