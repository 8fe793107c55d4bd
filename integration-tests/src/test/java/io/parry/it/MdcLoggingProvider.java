package io.parry.it;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.simple.SimpleServiceProvider;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * slf4j-simple's logging with a working MDC ({@link ThreadLocalMdc}), so tests can see the ids Parry
 * puts in the MDC. Registered in {@code META-INF/services}; being first on the test class path, it
 * is the provider SLF4J picks (it notes that slf4j-simple's is there too).
 */
public final class MdcLoggingProvider implements SLF4JServiceProvider {
    private final SimpleServiceProvider simple = new SimpleServiceProvider();
    private final MDCAdapter mdc = new ThreadLocalMdc();

    @Override
    public ILoggerFactory getLoggerFactory() {
        return simple.getLoggerFactory();
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return simple.getMarkerFactory();
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return simple.getRequestedApiVersion();
    }

    @Override
    public void initialize() {
        simple.initialize();
    }
}
