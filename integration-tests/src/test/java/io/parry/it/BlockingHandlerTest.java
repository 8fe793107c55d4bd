package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.RequestContext;
import io.parry.server.WorkerOptions;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BlockingHandlerTest {
    private static final CountDownLatch release = new CountDownLatch(1);
    private static final CountDownLatch blocked = new CountDownLatch(1);

    private static final Handler HANDLER = Handler.blocking((ctx, request) -> {
        if (request.path().equals("/block")) {
            blocked.countDown();
            release.await(10, TimeUnit.SECONDS);
        }
        String thread = Thread.currentThread().getName();
        boolean contextCurrent = RequestContext.current().map(c -> c == ctx).orElse(false);
        return HttpResponse.ofText(thread + " context=" + contextCurrent);
    });

    /** One platform thread and no queue, so a second blocking request finds the executor full. */
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            HANDLER,
            options -> options.workers(WorkerOptions.builder()
                    .virtualThreads(false)
                    .maxThreads(1)
                    .queueSize(0)
                    .build()));

    @Test
    void runsOffTheEventLoopWithTheRequestContextCurrent() {
        RawResponse response = get(server.connect(), "/where");

        assertThat(response.bodyText()).startsWith("parry-worker-").endsWith("context=true");
    }

    @Test
    void answers503AtOnceWhenTheWorkersAreFull() throws Exception {
        long before = server.server().rejections(Rejection.WORKERS_BUSY);
        try (RawConnection first = server.connect();
                RawConnection second = server.connect()) {
            first.send("GET /block HTTP/1.1\nHost: a\n\n");
            assertThat(blocked.await(5, TimeUnit.SECONDS)).isTrue();

            RawResponse refused = get(second, "/more");
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.bodyText()).contains("busy");

            release.countDown();
            assertThat(first.readResponse().status()).isEqualTo(200);
        }
        assertThat(server.server().rejections(Rejection.WORKERS_BUSY)).isEqualTo(before + 1);
    }

    private static RawResponse get(RawConnection connection, String path) {
        connection.send("GET " + path + " HTTP/1.1\nHost: a\n\n");
        return connection.readResponse();
    }
}
