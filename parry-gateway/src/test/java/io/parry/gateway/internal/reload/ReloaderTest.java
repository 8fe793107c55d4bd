package io.parry.gateway.internal.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.gateway.ReloadResult;
import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.upstream.Retirement;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import io.parry.gateway.internal.upstream.UpstreamRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream groups across reloads: kept when equal, replaced when changed, all or nothing. */
class ReloaderTest {
    private static final String TWO_GROUPS =
            """
            upstreams:
              kept: { endpoints: ["127.0.0.1:9001"] }
              changed: { endpoints: ["127.0.0.1:9002"] }
            routes:
              - { match: { prefix: /k }, proxy: { upstream: kept } }
              - { match: { prefix: /c }, proxy: { upstream: changed } }
            """;

    @TempDir
    Path dir;

    private final UpstreamRegistry registry =
            new UpstreamRegistry(new Retirement(Duration.ofMillis(100), Duration.ofSeconds(5)));
    private Reloader reloader;

    @AfterEach
    void close() {
        if (reloader != null) {
            reloader.close();
        }
        registry.close();
    }

    @Test
    void keepsTheGroupOfAnUnchangedUpstreamAndReplacesAChangedOne() throws IOException {
        Path file = write(TWO_GROUPS);
        reloader = new Reloader(ConfigSource.file(file, Map.of()), registry);
        ActiveConfig first = reloader.start(ConfigLoader.load(file, Map.of()));
        UpstreamGroup kept = first.upstreams().get("kept");
        UpstreamGroup changed = first.upstreams().get("changed");

        write(TWO_GROUPS.replace("9002", "9003"));
        ReloadResult result = reloader.reload(ReloadTrigger.API).join();

        assertThat(result).isEqualTo(ReloadResult.applied(2));
        ActiveConfig second = reloader.active();
        assertThat(second.upstreams().get("kept")).isSameAs(kept);
        assertThat(second.upstreams().get("kept").guarded()).isSameAs(kept.guarded());
        assertThat(second.upstreams().get("changed")).isNotSameAs(changed);
        assertThat(second.upstreams().get("changed").config().endpoints().get(0).port())
                .isEqualTo(9003);
        assertThat(registry.groups()).isEqualTo(second.upstreams());
    }

    @Test
    void keepsTheAdaptiveLimitOfAnUpstreamWhoseSettingsDidNotChange() throws IOException {
        String adaptive = TWO_GROUPS
                .replace(
                        "kept: { endpoints: [\"127.0.0.1:9001\"] }",
                        "kept: { endpoints: [\"127.0.0.1:9001\"], adaptiveConcurrency: { initialLimit: 30 } }")
                .replace(
                        "changed: { endpoints: [\"127.0.0.1:9002\"] }",
                        "changed: { endpoints: [\"127.0.0.1:9002\"], adaptiveConcurrency: { initialLimit: 30 } }");
        Path file = write(adaptive);
        reloader = new Reloader(ConfigSource.file(file, Map.of()), registry);
        ActiveConfig first = reloader.start(ConfigLoader.load(file, Map.of()));
        UpstreamGroup kept = first.upstreams().get("kept");

        write(adaptive.replace(
                "changed: { endpoints: [\"127.0.0.1:9002\"], adaptiveConcurrency: { initialLimit: 30 }",
                "changed: { endpoints: [\"127.0.0.1:9002\"], adaptiveConcurrency: { initialLimit: 40 }"));
        assertThat(reloader.reload(ReloadTrigger.API).join()).isEqualTo(ReloadResult.applied(2));

        ActiveConfig second = reloader.active();
        assertThat(second.upstreams().get("kept").guarded()).isSameAs(kept.guarded());
        assertThat(second.upstreams().get("changed").guarded().concurrencyLimit())
                .isEqualTo(40);
    }

    @Test
    void retiresARemovedGroupAndClosesItOnceIdle() throws IOException {
        Path file = write(TWO_GROUPS);
        reloader = new Reloader(ConfigSource.file(file, Map.of()), registry);
        reloader.start(ConfigLoader.load(file, Map.of()));

        write(
                """
                upstreams:
                  kept: { endpoints: ["127.0.0.1:9001"] }
                routes:
                  - { match: { prefix: /k }, proxy: { upstream: kept } }
                """);
        reloader.reload(ReloadTrigger.API).join();

        assertThat(registry.groups()).containsOnlyKeys("kept");
        io.parry.gateway.Await.until(
                "the removed group closes", () -> registry.retiring().isEmpty());
    }

    @Test
    void rejectedConfigurationLeavesEverythingAsItWas() throws IOException {
        Path file = write(TWO_GROUPS);
        reloader = new Reloader(ConfigSource.file(file, Map.of()), registry);
        ActiveConfig first = reloader.start(ConfigLoader.load(file, Map.of()));

        write(TWO_GROUPS.replace("9002", "9003").replace("upstream: kept", "upstream: missing"));
        ReloadResult result = reloader.reload(ReloadTrigger.FILE_CHANGE).join();

        assertThat(result.applied()).isFalse();
        assertThat(result.version()).isEqualTo(1);
        assertThat(reloader.active()).isSameAs(first);
        assertThat(registry.groups()).isEqualTo(first.upstreams());
        assertThat(registry.retiring()).isEmpty();
        assertThat(reloader.lastFailure()).hasValueSatisfying(failure -> {
            assertThat(failure.trigger()).isEqualTo("file change");
            assertThat(failure.errors()).anySatisfy(error -> assertThat(error).contains("missing"));
        });
    }

    @Test
    void aSuccessfulReloadClearsTheLastFailure() throws IOException {
        Path file = write(TWO_GROUPS);
        reloader = new Reloader(ConfigSource.file(file, Map.of()), registry);
        reloader.start(ConfigLoader.load(file, Map.of()));
        write("routes: nope");
        reloader.reload(ReloadTrigger.ADMIN).join();
        assertThat(reloader.lastFailure()).isPresent();

        write(TWO_GROUPS.replace("/k", "/kk"));
        reloader.reload(ReloadTrigger.ADMIN).join();

        assertThat(reloader.lastFailure()).isEmpty();
        assertThat(reloader.version()).isEqualTo(2);
    }

    private Path write(String yaml) throws IOException {
        return Files.writeString(dir.resolve("gateway.yaml"), yaml);
    }
}
