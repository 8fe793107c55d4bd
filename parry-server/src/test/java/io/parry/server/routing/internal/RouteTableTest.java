package io.parry.server.routing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.server.Handler;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RouteTableTest {
    private final Handler handler = (ctx, request) -> null;

    @Test
    void findsEachOfTenThousandStaticRoutesByItsOwnPath() {
        List<RouteEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            entries.add(entry("/resources/r" + i + "/items"));
        }
        RouteTable table = RouteTable.of(entries);

        for (int i = 0; i < 10_000; i += 997) {
            String path = "/resources/r" + i + "/items";
            assertThat(table.find(path, 0, HttpRequest.of(HttpMethod.GET, path)).toString())
                    .isEqualTo(path);
        }
        assertThat(table.find("/resources/r10000/items", 0, HttpRequest.of(HttpMethod.GET, "/x")))
                .isNull();
    }

    @Test
    void matchesFromAnOffsetForMountedRouters() {
        RouteTable table = RouteTable.of(List.of(entry("/items/{id}")));

        assertThat(table.find("/v2/items/7", 3, HttpRequest.of(HttpMethod.GET, "/v2/items/7")))
                .hasToString("/items/{id}");
    }

    @Test
    void evaluatesAConstraintOnItsSegmentOnly() {
        RouteTable table = RouteTable.of(List.of(entry("/a/{id:\\d+}/b")));

        assertThat(table.find("/a/12/b", 0, HttpRequest.of(HttpMethod.GET, "/a/12/b")))
                .isNotNull();
        assertThat(table.find("/a/12x/b", 0, HttpRequest.of(HttpMethod.GET, "/a/12x/b")))
                .isNull();
    }

    private RouteEntry entry(String pattern) {
        return new RouteEntry(
                HttpMethod.GET, PathPattern.parse(pattern), List.of(), List.of(), Set.of(), handler, null, null);
    }
}
