package io.parry.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.HeaderRules;
import org.junit.jupiter.api.Test;

class DownstreamResponsesTest {
    private static final ForwardingOptions NO_VIA =
            ForwardingOptions.builder().via("").build();

    @Test
    void removesHopByHopFieldsAndAppendsVia() {
        HttpBody body = HttpBody.ofUtf8("hello");
        HttpResponse upstream = HttpResponse.of(
                HttpStatus.CREATED,
                HttpHeaders.of(
                        "content-type", "text/plain",
                        "transfer-encoding", "chunked",
                        "connection", "keep-alive, x-hop",
                        "x-hop", "1",
                        "keep-alive", "timeout=5",
                        "proxy-authenticate", "Basic",
                        "trailer", "x-checksum",
                        "content-length", "5"),
                body);

        HttpResponse downstream =
                DownstreamResponses.prepare(upstream, HeaderRules.none(), ForwardingOptions.ofDefault());

        assertThat(downstream.status()).isEqualTo(HttpStatus.CREATED);
        assertThat(downstream.body()).isSameAs(body);
        assertThat(downstream.headers())
                .isEqualTo(HttpHeaders.of("content-type", "text/plain", "content-length", "5", "via", "1.1 parry"));
    }

    @Test
    void appendsToTheUpstreamsVia() {
        HttpResponse upstream = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("Via", "1.0 backend"), HttpBody.empty());

        HttpResponse downstream = DownstreamResponses.prepare(
                upstream,
                HeaderRules.none(),
                ForwardingOptions.builder().via("edge").build());

        assertThat(downstream.headers().getAll("via")).containsExactly("1.0 backend, 1.1 edge");
    }

    @Test
    void appliesTheResponseRulesAfterVia() {
        HttpResponse upstream = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("server", "backend"), HttpBody.empty());
        HeaderRules rules = HeaderRules.builder()
                .remove("via")
                .remove("server")
                .set("x-served-by", "parry")
                .build();

        HttpResponse downstream = DownstreamResponses.prepare(upstream, rules, ForwardingOptions.ofDefault());

        assertThat(downstream.headers()).isEqualTo(HttpHeaders.of("x-served-by", "parry"));
    }

    @Test
    void returnsTheSameResponseWhenNothingChanges() {
        HttpResponse upstream = HttpResponse.ofText("hello");

        assertThat(DownstreamResponses.prepare(upstream, HeaderRules.none(), NO_VIA))
                .isSameAs(upstream);
    }

    @Test
    void removesHopByHopFieldsWithoutVia() {
        HttpResponse upstream =
                HttpResponse.of(HttpStatus.OK, HttpHeaders.of("upgrade", "h2c", "etag", "\"1\""), HttpBody.empty());

        HttpResponse downstream = DownstreamResponses.prepare(upstream, HeaderRules.none(), NO_VIA);

        assertThat(downstream.headers()).isEqualTo(HttpHeaders.of("etag", "\"1\""));
        assertThat(upstream.headers().contains("upgrade")).isTrue();
    }
}
