package org.lockspi.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import javax.sql.DataSource;
import org.lockspi.LockService;
import org.lockspi.jdbc.JdbcLockProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@link LockService} of the JDBC provider on the application's own {@link DataSource}: its pool, credentials
 * and timeouts, as {@code JdbcLockProvider.open(dataSource, parameters)} takes them. It applies when
 * {@code lockspi.provider=jdbc}, no {@code lockspi.uri} is set (a {@code jdbc+postgresql://...} URI opens a pool of
 * the provider's own instead), lock-spi-jdbc is on the class path, the context has a DataSource and no
 * LockService. {@code lockspi.parameters.*} are the provider's parameters ({@code leaseTime}, {@code tablePrefix},
 * ...). A Redis or ZooKeeper application moves its locks to its database by configuration only:
 *
 * <pre>
 * spring.datasource.url=jdbc:postgresql://db:5432/orders
 * lockspi.provider=jdbc
 * lockspi.parameters.leaseTime=30s
 * </pre>
 */
@AutoConfiguration(before = LockspiAutoConfiguration.class,
        afterName = {"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"})
@ConditionalOnClass({JdbcLockProvider.class, DataSource.class})
@EnableConfigurationProperties(LockspiProperties.class)
public class LockspiJdbcAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnBean(DataSource.class)
    @ConditionalOnExpression("'${lockspi.provider:}'.trim() == 'jdbc' and '${lockspi.uri:}'.trim() == ''")
    LockService lockService(DataSource dataSource, LockspiProperties properties, ObjectProvider<MeterRegistry> registry,
                            ObjectProvider<ObservationRegistry> observationRegistry, Environment environment) {
        LockService service = JdbcLockProvider.open(dataSource, properties.parameterQuery());
        return LockspiAutoConfiguration.instrumented(service, properties, registry, observationRegistry, environment);
    }
}
