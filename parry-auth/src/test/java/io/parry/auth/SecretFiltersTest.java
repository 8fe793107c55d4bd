package io.parry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.auth.internal.SecretHash;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretFiltersTest {
    private static final HttpClient browser =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final BlockingQueue<RequestLog> logs = new LinkedBlockingQueue<>();
    private static final CountingExecutor hashing = new CountingExecutor();
    private static Server app;

    @TempDir
    static Path dir;

    private static Path users;

    @BeforeAll
    static void start() throws Exception {
        Credentials keys = Credentials.of(
                Map.of("ci", "sha256:" + SecretHash.sha256Hex("ci-key-0123456789"), "ops", bcrypt("ops-key")));
        users = dir.resolve("htpasswd");
        Files.writeString(users, "# users\nalice:" + bcrypt("wonderland") + "\nbob:" + argon2("builder") + "\n");
        SecretOptions options = SecretOptions.builder().executor(hashing).build();
        ApiKeyFilter apiKeys = ApiKeyFilter.builder(keys)
                .queryParam("api_key")
                .forwardClaims(Map.of("sub", "x-client"))
                .options(options)
                .build();
        BasicAuthFilter basic = BasicAuthFilter.builder(Credentials.fromFile(users))
                .options(options.toBuilder().cacheTime(Duration.ofMillis(1)).build())
                .build();
        Handler echo = Handler.sync((ctx, request) ->
                HttpResponse.ofText(Identity.of(ctx).orElseThrow().subject()
                        + "|" + request.target() + "|" + request.headers().get("x-api-key") + "|"
                        + request.headers().get("x-client") + "|"
                        + request.headers().get("authorization")));
        Handler routes = (ctx, request) -> request.path().startsWith("/basic")
                ? echo.with(basic).handle(ctx, request)
                : echo.with(apiKeys).handle(ctx, request);
        app = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(routes)
                .listener(logs::add)
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        app.stop(Duration.ofSeconds(2));
    }

    @Test
    void admitsAKeyInTheHeaderAndNeverForwardsIt() throws Exception {
        java.net.http.HttpResponse<String> response =
                send("/things", "X-Api-Key", "ci-key-0123456789", "X-Client", "root");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ci|/things|null|ci|null");
        assertThat(send("/things", "X-Api-Key", "ops-key").body()).startsWith("ops|");
    }

    @Test
    void takesAKeyOutOfTheQueryAndRedactsItInTheAccessLog() throws Exception {
        java.net.http.HttpResponse<String> response = send("/things?a=1&api_key=ci-key-0123456789&b=2");

        assertThat(response.body()).isEqualTo("ci|/things?a=1&b=2|null|ci|null");
        assertThat(logWithQueryKey().query()).isEqualTo("a=1&api_key=REDACTED&b=2");

        assertThat(send("/things?api_key=wrong").statusCode()).isEqualTo(401);
        assertThat(logWithQueryKey().query()).isEqualTo("api_key=REDACTED");
    }

    /**
     * The next request log whose query names the key parameter: a log of an earlier test's request can
     * still arrive after that test's response did.
     */
    private static RequestLog logWithQueryKey() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            RequestLog log = logs.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (log != null && log.query() != null && log.query().contains("api_key")) {
                return log;
            }
        }
        throw new AssertionError("no request log with api_key in its query within 5 s");
    }

    @Test
    void refusesMissingAndUnknownKeysWithAChallenge() throws Exception {
        java.net.http.HttpResponse<String> missing = send("/things");
        java.net.http.HttpResponse<String> unknown = send("/things", "X-Api-Key", "guess");

        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(missing.headers().firstValue("www-authenticate")).hasValue("ApiKey realm=\"parry\"");
        assertThat(unknown.statusCode()).isEqualTo(401);
    }

    @Test
    void checksARepeatedSecretOnceOnAWorker() throws Exception {
        send("/things", "X-Api-Key", "ops-key");
        long before = hashing.tasks();

        for (int i = 0; i < 5; i++) {
            assertThat(send("/things", "X-Api-Key", "ops-key").statusCode()).isEqualTo(200);
            assertThat(send("/things", "X-Api-Key", "same-wrong-guess").statusCode())
                    .isEqualTo(401);
        }

        assertThat(hashing.tasks() - before).isLessThanOrEqualTo(1);
        assertThat(hashing.threadNames()).allMatch(name -> name.startsWith("test-hashing"));
    }

    @Test
    void admitsBasicUsersWithBcryptAndArgon2HashesAndRemovesTheirPassword() throws Exception {
        assertThat(send("/basic", "Authorization", basic("alice", "wonderland")).body())
                .isEqualTo("alice|/basic|null|null|null");
        assertThat(send("/basic", "Authorization", basic("bob", "builder")).body())
                .startsWith("bob|");
        java.net.http.HttpResponse<String> wrong = send("/basic", "Authorization", basic("alice", "guess"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("www-authenticate")).hasValue("Basic realm=\"parry\", charset=\"UTF-8\"");
        assertThat(send("/basic", "Authorization", "Basic !!!").statusCode()).isEqualTo(401);
    }

    @Test
    void readsTheUsersFileAgainWhenItChanges() throws Exception {
        String before = Files.readString(users);
        Files.writeString(users, "carol:" + bcrypt("pw") + "\n");
        Files.setLastModifiedTime(users, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        try {
            int status = 0;
            for (int attempt = 0; attempt < 60 && status != 200; attempt++) {
                // The file is looked at no more than once a second, on a check: each attempt is one.
                status = send("/basic", "Authorization", basic("carol", "pw")).statusCode();
                if (status != 200) {
                    TimeUnit.MILLISECONDS.sleep(100);
                }
            }
            assertThat(status).isEqualTo(200);
        } finally {
            Files.writeString(users, before);
        }
    }

    private static java.net.http.HttpResponse<String> send(String target, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + target));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return browser.send(request.build(), BodyHandlers.ofString());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    static String bcrypt(String secret) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return OpenBSDBCrypt.generate("2b", secret.toCharArray(), salt, 4);
    }

    static String argon2(String secret) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(1024)
                .withIterations(2)
                .withParallelism(1)
                .withSalt(salt)
                .build());
        byte[] hash = new byte[32];
        generator.generateBytes(secret.getBytes(StandardCharsets.UTF_8), hash);
        Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
        return "$argon2id$v=19$m=1024,t=2,p=1$" + base64.encodeToString(salt) + "$" + base64.encodeToString(hash);
    }
}
