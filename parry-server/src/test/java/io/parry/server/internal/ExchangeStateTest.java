package io.parry.server.internal;

import static io.parry.server.internal.ExchangeState.ABANDONED;
import static io.parry.server.internal.ExchangeState.DONE;
import static io.parry.server.internal.ExchangeState.HANDLING;
import static io.parry.server.internal.ExchangeState.RECEIVING;
import static io.parry.server.internal.ExchangeState.RESPONDED;
import static io.parry.server.internal.ExchangeState.SENT;
import static io.parry.server.internal.ExchangeState.WRITING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The edges an exchange may take, and none other. */
class ExchangeStateTest {

    @Test
    void movesForwardFromReceivingToDone() {
        assertThat(RECEIVING.canMoveTo(HANDLING)).isTrue();
        assertThat(HANDLING.canMoveTo(RESPONDED)).isTrue();
        assertThat(RESPONDED.canMoveTo(WRITING)).isTrue();
        assertThat(WRITING.canMoveTo(SENT)).isTrue();
        assertThat(SENT.canMoveTo(DONE)).isTrue();
    }

    @Test
    void answersARefusedHeadWithoutAHandler() {
        assertThat(RECEIVING.canMoveTo(RESPONDED)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(
            value = ExchangeState.class,
            names = {"RECEIVING", "HANDLING", "RESPONDED", "WRITING"})
    void isAbandonedFromAnyStateBeforeTheLastMessageWasHandedOver(ExchangeState state) {
        assertThat(state.canMoveTo(ABANDONED)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ExchangeState.class)
    void refusesEveryOtherEdge(ExchangeState from) {
        Set<ExchangeState> allowed =
                switch (from) {
                    case RECEIVING -> EnumSet.of(HANDLING, RESPONDED, ABANDONED);
                    case HANDLING -> EnumSet.of(RESPONDED, ABANDONED);
                    case RESPONDED -> EnumSet.of(WRITING, ABANDONED);
                    case WRITING -> EnumSet.of(SENT, ABANDONED);
                    case SENT -> EnumSet.of(DONE);
                    case DONE, ABANDONED -> EnumSet.noneOf(ExchangeState.class);
                };
        for (ExchangeState to : ExchangeState.values()) {
            assertThat(from.canMoveTo(to)).as(from + " -> " + to).isEqualTo(allowed.contains(to));
        }
    }

    @Test
    void saysTheResponseStartedOnlyOnceTheFramingWritesIt() {
        assertThat(EnumSet.allOf(ExchangeState.class))
                .filteredOn(ExchangeState::responseStarted)
                .containsExactly(WRITING, SENT, DONE);
    }
}
