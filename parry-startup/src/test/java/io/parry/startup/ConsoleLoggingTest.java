package io.parry.startup;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import org.junit.jupiter.api.Test;

class ConsoleLoggingTest {
    @Test
    void logsInfoToTheConsoleAndTheAccessLogAsBareLinesOfItsOwn() {
        LoggerContext context = new LoggerContext();

        ExecutionStatus status = new ConsoleLogging().configure(context);

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(root.getAppender("console")).isNotNull();
        Logger access = context.getLogger("parry.access");
        assertThat(access.isAdditive()).isFalse();
        assertThat(access.getAppender("access")).isNotNull();
        assertThat(ConsoleLogging.configured()).isTrue();
    }

    @Test
    void givesWayToALogbackConfigurationFile() {
        System.setProperty("logback.configurationFile", "logback-of-the-application.xml");
        try {
            LoggerContext context = new LoggerContext();

            assertThat(new ConsoleLogging().configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
            assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("console"))
                    .isNull();
        } finally {
            System.clearProperty("logback.configurationFile");
        }
    }
}
