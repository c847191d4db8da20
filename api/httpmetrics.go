// The requests' metrics: echo-contrib's echoprometheus names and labels (requests_total,
// request_duration_seconds, request_size_bytes, response_size_bytes by code, method, host and
// route), with each label set's collectors kept rather than looked up by their label values on
// every request (issue 16: the lookups were a fifth of a map 304's time in the server).

package api

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// requestMetrics count, time and size the requests.
type requestMetrics struct {
	count                      *prometheus.CounterVec
	duration, reqSize, resSize *prometheus.HistogramVec
	// children keeps the collectors of each label set seen.
	children sync.Map
}

type requestLabels struct {
	code        int
	method, url string
}

type requestChildren struct {
	count                      prometheus.Counter
	duration, reqSize, resSize prometheus.Observer
}

// sizeBuckets are echoprometheus's: 1 KB to 10 MB.
var sizeBuckets = []float64{1 << 10, 2 << 10, 5 << 10, 10 << 10, 100 << 10, 500 << 10, 1 << 20, 2.5 * (1 << 20), 5 << 20, 10 << 20}

func newRequestMetrics(reg prometheus.Registerer) *requestMetrics {
	labels := []string{"code", "method", "host", "url"}
	m := &requestMetrics{
		count: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "coalition", Subsystem: "echo", Name: "requests_total",
			Help: "How many HTTP requests processed, partitioned by status code and HTTP method."}, labels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "coalition", Subsystem: "echo", Name: "request_duration_seconds",
			Help: "The HTTP request latencies in seconds.", Buckets: prometheus.DefBuckets}, labels),
		resSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "coalition", Subsystem: "echo", Name: "response_size_bytes",
			Help: "The HTTP response sizes in bytes.", Buckets: sizeBuckets}, labels),
		reqSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "coalition", Subsystem: "echo", Name: "request_size_bytes",
			Help: "The HTTP request sizes in bytes.", Buckets: sizeBuckets}, labels),
	}
	reg.MustRegister(m.count, m.duration, m.resSize, m.reqSize)
	return m
}

// observe counts a request answered (but the metrics' own), its time and sizes.
func (m *requestMetrics) observe(c echo.Context, req *http.Request, elapsed time.Duration) {
	if c.Path() == "/metrics" {
		return
	}
	// the route, not the path: an unknown path is no new series
	k := requestLabels{code: c.Response().Status, method: req.Method, url: c.Path()}
	ch, ok := m.children.Load(k)
	if !ok {
		ch, _ = m.children.LoadOrStore(k, m.child(k))
	}
	cs := ch.(*requestChildren)
	cs.count.Inc()
	cs.duration.Observe(elapsed.Seconds())
	cs.reqSize.Observe(float64(requestSize(req)))
	cs.resSize.Observe(float64(c.Response().Size))
}

func (m *requestMetrics) child(k requestLabels) *requestChildren {
	url := k.url
	if !utf8.ValidString(url) {
		url = strings.ToValidUTF8(url, "\uFFFD")
	}
	v := []string{strconv.Itoa(k.code), k.method, "", url}
	return &requestChildren{count: m.count.WithLabelValues(v...), duration: m.duration.WithLabelValues(v...),
		reqSize: m.reqSize.WithLabelValues(v...), resSize: m.resSize.WithLabelValues(v...)}
}

// requestSize is the request's size as echoprometheus counts it: path, method, protocol,
// headers, host and body.
func requestSize(r *http.Request) int {
	s := len(r.Method) + len(r.Proto) + len(r.Host)
	if r.URL != nil {
		s += len(r.URL.Path)
	}
	for name, values := range r.Header {
		s += len(name)
		for _, v := range values {
			s += len(v)
		}
	}
	if r.ContentLength != -1 {
		s += int(r.ContentLength)
	}
	return s
}
