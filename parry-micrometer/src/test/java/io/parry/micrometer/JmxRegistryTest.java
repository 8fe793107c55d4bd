package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Clock;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.parry.http.HttpResponse;
import io.parry.server.Server;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The set-up the README gives for JMX: the server's meters appear as MBeans of the platform server. */
class JmxRegistryTest {

    @Test
    void exposesServerMetersAsMBeans() throws Exception {
        JmxMeterRegistry registry = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM);
        ServerMetrics metrics = ServerMetrics.of(registry);
        EndedRequests ended = new EndedRequests();
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> HttpResponse.ofText("hi").toStage())
                .listener(metrics)
                .listener(ended)
                .build();
        metrics.bind(server);
        server.start();
        try {
            HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                                    .build(),
                            BodyHandlers.discarding());
            ended.await(1);

            MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = mbeans.queryNames(new ObjectName("metrics:*"), null);
            assertThat(names)
                    .extracting(ObjectName::getKeyPropertyListString)
                    .anySatisfy(name -> assertThat(name).contains("parryServerConnections"))
                    .anySatisfy(name -> assertThat(name).contains("parryServerRequests"));
            ObjectName connections = names.stream()
                    .filter(name -> name.getKeyPropertyListString().contains("parryServerConnections"))
                    .findFirst()
                    .orElseThrow();
            assertThat(mbeans.getAttribute(connections, "Value"))
                    .as("the JDK client keeps its connection open")
                    .isEqualTo(1.0);
        } finally {
            server.stop(Duration.ofSeconds(2));
            registry.close();
        }
    }
}
