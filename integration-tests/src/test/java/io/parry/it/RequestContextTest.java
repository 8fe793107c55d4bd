package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RequestContextTest {
    private static final Handler HANDLER = (ctx, request) -> {
        boolean currentInHandler = RequestContext.current().orElse(null) == ctx;
        CompletableFuture<HttpResponse> later = new CompletableFuture<>();
        ctx.eventLoop()
                .schedule(
                        () -> {
                            boolean currentInTimer = RequestContext.current().orElse(null) == ctx;
                            later.complete(HttpResponse.ofText(String.join(
                                    " ",
                                    "handler=" + currentInHandler,
                                    "timer=" + currentInTimer,
                                    "thread=" + Thread.currentThread().getName(),
                                    "remote=" + ctx.remoteAddress().getAddress().getHostAddress(),
                                    "protocol=" + ctx.protocol(),
                                    "id=" + ctx.requestId())));
                        },
                        1,
                        TimeUnit.MILLISECONDS);
        return later;
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(HANDLER);

    @Test
    void carriesTheContextToTheHandlerAndItsEventLoopTasks() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET / HTTP/1.1\nHost: a\n\nGET / HTTP/1.1\nHost: a\n\n");
            RawResponse first = connection.readResponse();
            RawResponse second = connection.readResponse();

            assertThat(first.bodyText())
                    .contains(
                            "handler=true",
                            "timer=true",
                            "thread=parry-loop-",
                            "remote=127.0.0.1",
                            "protocol=HTTP/1.1");
            assertThat(requestId(first)).isNotEqualTo(requestId(second));
        }
        assertThat(RequestContext.current()).isEmpty();
    }

    private static String requestId(RawResponse response) {
        String body = response.bodyText();
        return body.substring(body.indexOf("id=") + 3);
    }
}
