package io.parry.gateway;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.zip.CRC32;

/**
 * An upstream for large streamed bodies, each chunk pulled one at a time: {@code GET /download?bytes=N} answers with
 * the first N bytes of {@link PatternBody}, and {@code POST /upload} answers {@code <length> <crc32>} of the body it
 * read.
 */
final class PatternUpstream {
    private static final int CHUNK = 64 * 1024;

    private PatternUpstream() {}

    static Handler handler() {
        return (ctx, request) -> {
            if (request.method().equals(HttpMethod.GET)) {
                long length = Long.parseLong(request.queryParam("bytes").orElse("0"));
                return HttpResponse.of(
                                HttpStatus.OK,
                                HttpHeaders.of("content-type", "application/octet-stream"),
                                HttpBody.of(pattern(length), length))
                        .toStage();
            }
            CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
            request.body().subscribe(new Checksum(answer));
            return answer;
        };
    }

    /** The pattern's first {@code length} bytes, a chunk for each one demanded. */
    private static Flow.Publisher<HttpData> pattern(long length) {
        return subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private final PatternBody body = new PatternBody(length);
            private long demand;
            private boolean emitting;
            private boolean done;

            @Override
            public void request(long n) {
                demand += n;
                if (emitting) {
                    return; // The loop below is on the stack and sees the new demand.
                }
                emitting = true;
                while (demand > 0 && !done) {
                    byte[] chunk = new byte[CHUNK];
                    int read = body.read(chunk, 0, CHUNK);
                    if (read < 0) {
                        done = true;
                        subscriber.onComplete();
                    } else {
                        demand--;
                        subscriber.onNext(HttpData.wrap(chunk, 0, read));
                    }
                }
                emitting = false;
            }

            @Override
            public void cancel() {
                done = true;
            }
        });
    }

    /** Reads a body a chunk at a time and answers with its length and CRC-32. */
    private static final class Checksum implements Flow.Subscriber<HttpData> {
        private final CompletableFuture<HttpResponse> answer;
        private final CRC32 crc = new CRC32();
        private Flow.Subscription subscription;
        private long length;

        Checksum(CompletableFuture<HttpResponse> answer) {
            this.answer = answer;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(HttpData item) {
            ByteBuffer bytes = item.asByteBuffer();
            length += bytes.remaining();
            crc.update(bytes);
            subscription.request(1);
        }

        @Override
        public void onError(Throwable failure) {
            answer.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            answer.complete(HttpResponse.ofText(length + " " + crc.getValue()));
        }
    }
}
