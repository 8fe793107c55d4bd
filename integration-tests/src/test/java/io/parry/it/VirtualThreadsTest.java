package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** On JDK 21 and later, blocking handlers run on virtual threads by default (CI runs the suite on JDK 25). */
class VirtualThreadsTest {
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(Handler.blocking(
            (ctx, request) -> HttpResponse.ofText(Thread.currentThread().toString())));

    @Test
    void runsBlockingHandlersOnVirtualThreadsOnJdk21AndLater() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
        try (RawConnection connection = server.connect()) {
            connection.send("GET / HTTP/1.1\nHost: a\n\n");

            assertThat(connection.readResponse().bodyText()).startsWith("VirtualThread");
        }
    }

    @Test
    void runsBlockingHandlersOnThePlatformPoolOnJdk17() {
        assumeTrue(Runtime.version().feature() < 21, "JDK 17 to 20 have no virtual threads");
        try (RawConnection connection = server.connect()) {
            connection.send("GET / HTTP/1.1\nHost: a\n\n");

            assertThat(connection.readResponse().bodyText()).contains("parry-worker-");
        }
    }
}
