package io.parry.demo.live;

import io.parry.server.websocket.WebSocketMessage;
import io.parry.server.websocket.WebSocketSession;
import java.util.concurrent.Flow;

/** Sends each message back as it came, and asks for the next one only once the echo was written. */
final class Echo implements Flow.Subscriber<WebSocketMessage> {
    private final WebSocketSession session;
    private Flow.Subscription subscription;

    Echo(WebSocketSession session) {
        this.session = session;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(WebSocketMessage message) {
        session.send(message).whenComplete((written, failure) -> {
            if (failure == null) {
                subscription.request(1);
            }
        });
    }

    @Override
    public void onError(Throwable failure) {
        // The connection ended without a close handshake: nothing is left to echo.
    }

    @Override
    public void onComplete() {
        // The client's close frame was answered by the session itself.
    }
}
