//! Server rendering of the storefront's pages. The storefront's server bundle (one
//! script, built by Vite from the same React components the browser runs) is loaded
//! once into each of a few QuickJS engines, each on its own thread, off the async
//! executor. A page is rendered by the first free engine, within a memory cap per
//! engine and a time cap per render; the pages' data comes from the caller's
//! [`Fetcher`] (the shop's own API, in process). When a render fails, runs out of
//! time or memory, or every engine is busy with a full queue, the caller gets an
//! error and serves the page without it: a render never takes the shop down.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rquickjs::convert::List;
use rquickjs::{CaughtError, Context, Ctx, Function, Object, Persistent, Promise, Runtime};

/// What the pool may use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Engines, each on its own thread.
    pub engines: usize,
    /// The memory one engine may hold, the loaded bundle included.
    pub memory_per_engine: usize,
    /// How long one render may take, its data included.
    pub render_time: Duration,
    /// Renders waiting for an engine; past this, a render is refused at once.
    pub queue: usize,
    /// API calls one render may make.
    pub fetches_per_render: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            engines: 2,
            memory_per_engine: 32 << 20,
            render_time: Duration::from_millis(500),
            queue: 64,
            fetches_per_render: 32,
        }
    }
}

/// The answer to one of the render's API calls.
#[derive(Debug, Default)]
pub struct FetchAnswer {
    pub status: u16,
    /// `name: value` lines.
    pub headers: String,
    pub body: String,
}

/// Answers the render's API calls: `(method, path and query)`.
pub type Fetcher = Box<dyn FnMut(&str, &str) -> FetchAnswer + Send>;

/// A rendered page: the app's HTML and the data it was rendered with.
#[derive(Debug, Default)]
pub struct Rendered {
    pub html: String,
    /// TanStack Query's dehydrated cache, as JSON.
    pub state: String,
    /// Renders it took to find the page's data.
    pub rounds: u32,
    /// API calls made.
    pub fetches: u32,
    /// The heap the engine held at the end of a recent render (garbage and the loaded
    /// bundle included; measured every few renders; for its first render, once the
    /// bundle had loaded), in bytes.
    pub engine_bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the server bundle did not load: {0}")]
    Load(String),
    #[error("the render failed: {0}")]
    Script(String),
    #[error("the render took longer than {0:?}")]
    Timeout(Duration),
    #[error("every engine is busy")]
    Busy,
    #[error("the rendering engines have stopped")]
    Stopped,
}

struct Job {
    input: String,
    fetch: Fetcher,
    reply: tokio::sync::oneshot::Sender<Result<Rendered, RenderError>>,
}

/// A pool of engines with the storefront's server bundle loaded.
pub struct Renderer {
    jobs: SyncSender<Job>,
    limits: Limits,
}

/// Rendering a page nests deeply; the engines' threads get room for it.
const ENGINE_STACK: usize = 16 << 20;
const SCRIPT_STACK: usize = 8 << 20;

impl Renderer {
    /// Loads the bundle in one engine to check it works, then starts the pool.
    pub fn start(bundle: &str, limits: Limits) -> Result<Self, RenderError> {
        let bundle: Arc<str> = Arc::from(bundle);
        let (jobs, queue) = sync_channel::<Job>(limits.queue.max(1));
        let queue = Arc::new(Mutex::new(queue));
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        for n in 0..limits.engines.max(1) {
            let bundle = bundle.clone();
            let limits = limits.clone();
            let queue = queue.clone();
            let ready = ready_tx.clone();
            std::thread::Builder::new()
                .name(format!("render-{n}"))
                .stack_size(ENGINE_STACK)
                .spawn(move || serve(&bundle, &limits, &queue, ready))
                .map_err(|e| RenderError::Load(e.to_string()))?;
        }
        drop(ready_tx);
        // Every engine reports whether the bundle loaded; one failure is enough to refuse.
        for _ in 0..limits.engines.max(1) {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(RenderError::Stopped),
            }
        }
        Ok(Self { jobs, limits })
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Renders a page. `input` is the bundle's render input (JSON: the page's URL and
    /// settings); `fetch` answers the render's API calls on an engine's thread.
    pub async fn render(&self, input: String, fetch: Fetcher) -> Result<Rendered, RenderError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        match self.jobs.try_send(Job {
            input,
            fetch,
            reply,
        }) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(RenderError::Busy),
            Err(TrySendError::Disconnected(_)) => return Err(RenderError::Stopped),
        }
        answer.await.unwrap_or(Err(RenderError::Stopped))
    }
}

/// One engine's thread: takes renders off the queue until the pool is dropped. An
/// engine whose render failed is replaced, since a script stopped half-way (out of
/// time or memory) may have left it in any state.
fn serve(
    bundle: &str,
    limits: &Limits,
    queue: &Mutex<Receiver<Job>>,
    ready: std::sync::mpsc::Sender<Result<(), RenderError>>,
) {
    let mut engine = match Engine::new(bundle, limits) {
        Ok(engine) => {
            let _ = ready.send(Ok(()));
            Some(engine)
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    drop(ready);
    loop {
        let job = {
            let Ok(queue) = queue.lock() else { return };
            match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        let current = match engine.take() {
            Some(engine) => engine,
            None => match Engine::new(bundle, limits) {
                Ok(engine) => engine,
                Err(e) => {
                    let _ = job.reply.send(Err(e));
                    continue;
                }
            },
        };
        let result = current.render(&job.input, job.fetch, limits);
        let rendered = result.is_ok();
        let _ = job.reply.send(result);
        // The page has gone; the tidying up is not on its time. What the render left
        // behind is collected before the next one; an engine whose render failed is
        // replaced now rather than when the next page needs it.
        engine = if rendered {
            current.collect();
            Some(current)
        } else {
            drop(current);
            Engine::new(bundle, limits).ok()
        };
    }
}

struct Engine {
    // Dropped in this order: the render function before the context, the context
    // before the runtime.
    render: Persistent<Function<'static>>,
    context: Context,
    runtime: Runtime,
    deadline: Rc<Cell<Option<Instant>>>,
    calls: Rc<RefCell<Calls>>,
    /// The heap at the end of a recent render, before its garbage was collected (at
    /// first, the loaded bundle's).
    held: Cell<u64>,
    /// Renders done, for measuring the heap once in a while.
    renders: Cell<u32>,
    /// The heap past which the engine would collect in the middle of a render.
    gc_threshold: usize,
}

/// The heap is measured once the bundle has loaded, then after every this many renders.
const HEAP_MEASURED_EVERY: u32 = 16;

/// The cycles renders leave behind are collected after every this many renders.
const COLLECT_EVERY: u32 = 4;

/// The current render's API calls.
#[derive(Default)]
struct Calls {
    fetch: Option<Fetcher>,
    made: u32,
    allowed: u32,
}

impl Engine {
    fn new(bundle: &str, limits: &Limits) -> Result<Self, RenderError> {
        let load = |e: rquickjs::Error| RenderError::Load(e.to_string());
        let runtime = Runtime::new().map_err(load)?;
        runtime.set_memory_limit(limits.memory_per_engine);
        runtime.set_max_stack_size(SCRIPT_STACK);
        let deadline: Rc<Cell<Option<Instant>>> = Rc::default();
        let watch = deadline.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || {
            watch.get().is_some_and(|at| Instant::now() >= at)
        })));
        let context = Context::full(&runtime).map_err(load)?;
        let calls: Rc<RefCell<Calls>> = Rc::default();
        let render = context.with(|ctx| {
            install_host(&ctx, calls.clone()).map_err(|e| caught(&ctx, e))?;
            ctx.eval::<(), _>(bundle).map_err(|e| caught(&ctx, e))?;
            let server: Object = ctx
                .globals()
                .get("FerroshopServer")
                .map_err(|e| caught(&ctx, e))?;
            let loader: Function = server.get("load").map_err(|e| caught(&ctx, e))?;
            let module: Object = loader
                .call::<_, Promise>(())
                .and_then(|p| p.finish::<Object>())
                .map_err(|e| caught(&ctx, e))?;
            let render: Function = module.get("render").map_err(|e| caught(&ctx, e))?;
            Ok::<_, String>(Persistent::save(&ctx, render))
        });
        let render = render.map_err(RenderError::Load)?;
        let engine = Self {
            render,
            context,
            runtime,
            deadline,
            calls,
            held: Cell::new(0),
            renders: Cell::new(0),
            gc_threshold: limits.memory_per_engine / 2,
        };
        engine.collect();
        Ok(engine)
    }

    fn render(
        &self,
        input: &str,
        fetch: Fetcher,
        limits: &Limits,
    ) -> Result<Rendered, RenderError> {
        *self.calls.borrow_mut() = Calls {
            fetch: Some(fetch),
            made: 0,
            allowed: limits.fetches_per_render,
        };
        self.deadline.set(Some(Instant::now() + limits.render_time));
        let output = self.context.with(|ctx| {
            let render = self
                .render
                .clone()
                .restore(&ctx)
                .map_err(|e| caught(&ctx, e))?;
            // `[html, state, rounds, fetches]`: the two texts as they are, not inside
            // another JSON text that would escape the page state's every quote again.
            render
                .call::<_, Promise>((input,))
                .and_then(|p| p.finish::<List<(String, String, u32, u32)>>())
                .map_err(|e| caught(&ctx, e))
        });
        let timed_out = self.deadline.get().is_some_and(|at| Instant::now() >= at);
        self.deadline.set(None);
        *self.calls.borrow_mut() = Calls::default();
        match output {
            Ok(List((html, state, rounds, fetches))) => Ok(Rendered {
                html,
                state,
                rounds,
                fetches,
                engine_bytes: self.held.get(),
            }),
            Err(_) if timed_out => Err(RenderError::Timeout(limits.render_time)),
            Err(message) => Err(RenderError::Script(message)),
        }
    }

    /// Collects what the renders left behind, noting the heap first now and then.
    fn collect(&self) {
        // Measuring walks the whole heap, as long as collecting it: done once in a while.
        let renders = self.renders.get();
        if renders.is_multiple_of(HEAP_MEASURED_EVERY) {
            self.held
                .set(self.runtime.memory_usage().malloc_size.max(0) as u64);
        }
        self.renders.set(renders.wrapping_add(1));
        // A collection walks the whole heap, the bundle's code included, for the cycles
        // a render leaves (reference counting frees the rest as it goes): after every
        // few renders, not each one. The engine's memory limit holds throughout.
        if renders.is_multiple_of(COLLECT_EVERY) {
            self.runtime.run_gc();
        }
        // Left to itself, the engine also collects whenever its heap has grown by half
        // since its last collection of its own: with a 3 MB bundle that is in the
        // middle of nearly every render, a whole-heap walk on the page's time (a
        // product page's render took 17 ms instead of 14). It collects on its own
        // only past half its memory, far beyond what a render holds, and each
        // collection of its own resets this, so it is set again after every render.
        self.runtime.set_gc_threshold(self.gc_threshold);
    }
}

/// The functions the bundle's polyfills call: `__ferroshopFetch` and `__ferroshopLog`.
fn install_host<'js>(ctx: &Ctx<'js>, calls: Rc<RefCell<Calls>>) -> rquickjs::Result<()> {
    let fetch = Function::new(
        ctx.clone(),
        move |method: String, url: String| -> List<(u16, String, String)> {
            let mut calls = calls.borrow_mut();
            let answer = if calls.made >= calls.allowed {
                FetchAnswer {
                    status: 503,
                    ..FetchAnswer::default()
                }
            } else {
                calls.made += 1;
                match calls.fetch.as_mut() {
                    Some(fetch) => fetch(&method, &url),
                    None => FetchAnswer {
                        status: 503,
                        ..FetchAnswer::default()
                    },
                }
            };
            List((answer.status, answer.headers, answer.body))
        },
    )?;
    ctx.globals().set("__ferroshopFetch", fetch)?;
    let log = Function::new(ctx.clone(), |level: String, message: String| {
        match level.as_str() {
            "error" => tracing::warn!(target: "ferroshop::render", "{message}"),
            "warn" => tracing::info!(target: "ferroshop::render", "{message}"),
            _ => tracing::debug!(target: "ferroshop::render", "{message}"),
        }
    })?;
    ctx.globals().set("__ferroshopLog", log)?;
    Ok(())
}

/// A script error as text: the exception's message and stack where there is one.
fn caught(ctx: &Ctx<'_>, error: rquickjs::Error) -> String {
    CaughtError::from_error(ctx, error).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUNDLE: &str = r#"
        var FerroshopServer = {
            load: function () {
                return Promise.resolve({
                    render: async function (input) {
                        var request = JSON.parse(input);
                        if (request.url === '/throw') throw new Error('broken page');
                        if (request.url === '/spin') { for (;;) {} }
                        if (request.url === '/odd') return JSON.stringify({ html: '<p>odd</p>' });
                        if (request.url === '/grow') { var all = []; for (;;) all.push(new Array(100000).fill(1)); }
                        var answer = __ferroshopFetch('GET', '/wp-json/test?page=' + request.url);
                        return ['<p>' + answer[2] + '</p>', '{}', 1, answer[0] === 200 ? 1 : 0];
                    }
                });
            }
        };
    "#;

    fn limits() -> Limits {
        Limits {
            engines: 1,
            memory_per_engine: 16 << 20,
            render_time: Duration::from_millis(200),
            queue: 4,
            fetches_per_render: 4,
        }
    }

    fn echo() -> Fetcher {
        Box::new(|method, url| FetchAnswer {
            status: 200,
            headers: String::new(),
            body: format!("{method} {url}"),
        })
    }

    fn input(url: &str) -> String {
        serde_json::json!({ "url": url, "settings": "{}" }).to_string()
    }

    #[tokio::test]
    async fn a_page_renders_with_the_data_its_fetcher_gives() {
        let renderer = Renderer::start(BUNDLE, limits()).unwrap();
        let page = renderer.render(input("/shop"), echo()).await.unwrap();
        assert_eq!(page.html, "<p>GET /wp-json/test?page=/shop</p>");
        assert_eq!(page.fetches, 1);
        assert!(
            page.engine_bytes > 0 && page.engine_bytes < 16 << 20,
            "{}",
            page.engine_bytes
        );
    }

    #[tokio::test]
    async fn a_render_answering_other_than_its_four_parts_is_an_error() {
        let renderer = Renderer::start(BUNDLE, limits()).unwrap();
        let error = renderer.render(input("/odd"), echo()).await.unwrap_err();
        assert!(matches!(error, RenderError::Script(_)), "{error}");
        assert!(renderer.render(input("/"), echo()).await.is_ok());
    }

    #[tokio::test]
    async fn a_failing_render_is_an_error_and_the_next_render_works() {
        let renderer = Renderer::start(BUNDLE, limits()).unwrap();
        let error = renderer.render(input("/throw"), echo()).await.unwrap_err();
        assert!(
            matches!(&error, RenderError::Script(m) if m.contains("broken page")),
            "{error}"
        );
        assert!(renderer.render(input("/"), echo()).await.is_ok());
    }

    #[tokio::test]
    async fn a_render_that_never_ends_is_stopped_at_its_time_limit() {
        let renderer = Renderer::start(BUNDLE, limits()).unwrap();
        let started = Instant::now();
        let error = renderer.render(input("/spin"), echo()).await.unwrap_err();
        assert!(matches!(error, RenderError::Timeout(_)), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(renderer.render(input("/"), echo()).await.is_ok());
    }

    #[tokio::test]
    async fn a_render_that_grows_without_end_is_stopped_at_its_memory_limit() {
        let renderer = Renderer::start(BUNDLE, limits()).unwrap();
        let error = renderer.render(input("/grow"), echo()).await.unwrap_err();
        assert!(
            matches!(&error, RenderError::Script(m) if m.contains("out of memory")),
            "{error}"
        );
        assert!(renderer.render(input("/"), echo()).await.is_ok());
    }

    #[test]
    fn a_bundle_that_does_not_load_is_refused_at_start() {
        let error = Renderer::start("var FerroshopServer = {};", limits())
            .err()
            .unwrap();
        assert!(matches!(error, RenderError::Load(_)), "{error}");
    }

    #[tokio::test]
    async fn calls_past_the_limit_are_refused() {
        let bundle = r#"
            var FerroshopServer = { load: () => Promise.resolve({ render: async () => {
                var codes = [];
                for (var i = 0; i < 6; i++) codes.push(__ferroshopFetch('GET', '/wp-json/x')[0]);
                return [codes.join(','), '{}', 1, 6];
            } }) };
        "#;
        let renderer = Renderer::start(bundle, limits()).unwrap();
        let page = renderer.render(input("/"), echo()).await.unwrap();
        assert_eq!(page.html, "200,200,200,200,503,503");
    }
}
