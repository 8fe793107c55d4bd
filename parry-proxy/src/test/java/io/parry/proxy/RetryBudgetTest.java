package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetryBudgetTest {
    @Test
    void allowsTheChosenShareOfRequestsAsRetries() {
        RetryBudget budget = budget(20, 0);

        for (int i = 0; i < 10; i++) {
            budget.deposit();
        }

        assertThat(budget.tryWithdraw()).isTrue();
        assertThat(budget.tryWithdraw()).isTrue();
        assertThat(budget.tryWithdraw()).isFalse();
    }

    @Test
    void allowsNothingWithoutAShareOrAFloor() {
        RetryBudget budget = budget(0, 0);
        budget.deposit();

        assertThat(budget.tryWithdraw()).isFalse();
    }

    @Test
    void keepsAtMostAHundredRetriesInReserve() {
        RetryBudget budget = budget(100, 0);
        for (int i = 0; i < 1_000; i++) {
            budget.deposit();
        }

        int allowed = 0;
        while (budget.tryWithdraw()) {
            allowed++;
        }

        assertThat(allowed).isEqualTo(100);
    }

    @Test
    void allowsTheFloorEachSecondWithoutAnyRequests() {
        int allowed;
        long second;
        do {
            // Retried in the rare case the clock ticks into the next second meanwhile.
            second = System.nanoTime() / 1_000_000_000L;
            RetryBudget budget = budget(0, 3);
            allowed = 0;
            for (int i = 0; i < 10; i++) {
                allowed += budget.tryWithdraw() ? 1 : 0;
            }
        } while (System.nanoTime() / 1_000_000_000L != second);

        assertThat(allowed).isEqualTo(3);
    }

    private static RetryBudget budget(int percent, int perSecond) {
        return new RetryBudget(RetryPolicy.builder()
                .budgetPercent(percent)
                .minRetriesPerSecond(perSecond)
                .build());
    }
}
