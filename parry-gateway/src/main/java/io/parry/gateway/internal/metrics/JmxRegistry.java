package io.parry.gateway.internal.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;

/**
 * Makes the JMX registry. A class of its own so that the JMX registry's classes are loaded only when
 * the configuration turns JMX on.
 */
final class JmxRegistry {
    private JmxRegistry() {}

    /** A registry whose meters are MBeans of the platform MBean server, in the {@code metrics} domain. */
    static MeterRegistry start() {
        return new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM);
    }
}
