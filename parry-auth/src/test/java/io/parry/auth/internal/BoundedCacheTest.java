package io.parry.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedCacheTest {

    @Test
    void neverHoldsMoreThanItsCapacityUnderAFloodOfDistinctKeys() {
        BoundedCache<String, Integer> cache = new BoundedCache<>(100);

        for (int i = 0; i < 10_000; i++) {
            cache.put("token-" + i, i);
        }

        assertThat(cache.size()).isLessThanOrEqualTo(100);
        assertThat(cache.get("token-9999")).isEqualTo(9999);
    }
}
