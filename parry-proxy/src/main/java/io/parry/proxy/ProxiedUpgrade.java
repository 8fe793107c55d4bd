package io.parry.proxy;

import io.netty.channel.Channel;
import io.parry.client.Endpoint;
import io.parry.proxy.internal.WebSocketRelay;
import io.parry.transport.spi.ConnectionTakeover;
import io.parry.transport.spi.UpgradedChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of the {@code 101} a proxy sends its client for a WebSocket handshake the upstream accepted:
 * when the server hands the client's connection over, the upstream's connection is taken out of its
 * holder and a {@link WebSocketRelay} joins the two. The session is counted on its group from then
 * until either connection ends. A stopping server closes it with {@code 1001} at its deadline, not
 * before: sessions are long-lived and the stop's drain time is theirs to finish in.
 */
final class ProxiedUpgrade implements ConnectionTakeover {
    private static final Logger log = LoggerFactory.getLogger(ProxiedUpgrade.class);

    private final UpgradedChannel upstream;
    private final WebSocketRelay relay;
    private final GuardedUpstream group;
    private final Endpoint endpoint;
    private final String route;

    ProxiedUpgrade(
            UpgradedChannel upstream,
            WebSocketProxyOptions options,
            GuardedUpstream group,
            Endpoint endpoint,
            String route) {
        this.upstream = upstream;
        this.group = group;
        this.endpoint = endpoint;
        this.route = route;
        this.relay = new WebSocketRelay(options, this::ended);
    }

    /**
     * Both connections must share the event loop, as the relay is confined to one; Parry's client
     * called on a server's loop connects on that loop.
     */
    @Override
    public void takeOver(Channel channel) {
        Channel up = upstream.channel();
        if (up.eventLoop() != channel.eventLoop()) {
            upstream.close();
            throw new IllegalStateException(
                    "the upstream connection is on another event loop; call the proxy's client on the server's loops");
        }
        group.webSocketOpened(endpoint, route);
        relay.installDownstream(channel.pipeline());
        upstream.takeOver(relay::installUpstream);
        relay.start();
    }

    @Override
    public void abandoned(Throwable cause) {
        log.debug("The client's connection was not handed over; closing the upstream's: {}", cause.toString());
        upstream.close();
    }

    @Override
    public void forceClose(Channel channel) {
        relay.goAway("the server is stopping");
        channel.close();
    }

    private void ended() {
        try {
            group.webSocketClosed(endpoint, route);
        } catch (RuntimeException e) {
            log.warn("A proxy observer failed on a closed WebSocket session", e);
        }
    }
}
