package io.parry.examples.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.proxy.GuardedUpstream;
import io.parry.server.Server;
import io.parry.testing.ServerExtension;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyAppTest {
    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) ->
            HttpResponse.ofText("upstream saw " + request.target()).toStage());

    @Test
    void proxiesEveryPathToTheUpstream() throws Exception {
        GuardedUpstream group = GuardedUpstream.of(ProxyApp.upstream("http://127.0.0.1:" + upstream.port()));
        Server proxy = ProxyApp.start(0, group);
        try {
            var response = upstream.client()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + "/any/path?q=1"))
                                    .build(),
                            BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("upstream saw /any/path?q=1");
            assertThat(response.headers().firstValue("via")).hasValue("1.1 parry");
        } finally {
            proxy.stop(Duration.ofSeconds(1));
            group.close();
        }
    }

    @Test
    void readsSeveralUpstreamsSeparatedByCommas() {
        assertThat(ProxyApp.upstream("http://127.0.0.1:9000, 127.0.0.1:9001").endpoints())
                .extracting(Object::toString)
                .containsExactly("127.0.0.1:9000", "127.0.0.1:9001");
    }
}
