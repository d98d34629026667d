package org.lockspi.spring.internal;

import org.lockspi.spring.Locked;
import org.lockspi.spring.ScheduledLock;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.Ordered;

/**
 * Proxies the beans that have {@link Locked} or {@link ScheduledLock} methods (class proxies), before the
 * scheduling post-processor sees them, so that {@code @Scheduled} calls go through the lock.
 */
public final class LockspiAdvisingPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor
        implements DisposableBean {
    private static final long serialVersionUID = 1L;

    private transient LockspiInterceptor interceptor;

    /** A post-processor ordered first, proxying target classes. */
    public LockspiAdvisingPostProcessor() {
        setProxyTargetClass(true);
        setBeforeExistingAdvisors(true);
        setOrder(Ordered.HIGHEST_PRECEDENCE);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        super.setBeanFactory(beanFactory);
        interceptor = new LockspiInterceptor(beanFactory);
        ComposablePointcut pointcut = new ComposablePointcut(new AnnotationMatchingPointcut(null, Locked.class, true))
                .union(new AnnotationMatchingPointcut(null, ScheduledLock.class, true));
        this.advisor = new DefaultPointcutAdvisor(pointcut, interceptor);
    }

    @Override
    public void destroy() {
        if (interceptor != null) {
            interceptor.close();
        }
    }
}
