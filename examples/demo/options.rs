//! The demo's command line.

use std::path::PathBuf;

use bevy::prelude::*;

/// What the mouse does, shown in the corner and by `--help`.
pub const HELP: &str = "Left-drag: pan   Scroll: zoom   Left-click: select a unit\n\
Right-click: send the selected unit there (its route is drawn)\n\
Right-drag: ...and face the drag direction (a tank parks, reversing in)";

/// Command-line options.
pub struct Options {
    pub world: PathBuf,
    pub seed: Option<u64>,
    pub frames: Option<u32>,
    pub screenshot: Option<PathBuf>,
    pub send_to: Option<Vec2>,
}

pub fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        world: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/worlds/town.world.ron"),
        seed: None,
        frames: None,
        screenshot: None,
        send_to: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--world" => options.world = PathBuf::from(value("--world")?),
            "--seed" => {
                let text = value("--seed")?;
                options.seed = Some(
                    text.parse()
                        .map_err(|_| format!("--seed must be a whole number, not {text:?}"))?,
                );
            }
            "--frames" => {
                let text = value("--frames")?;
                options.frames = Some(
                    text.parse()
                        .map_err(|_| format!("--frames must be a whole number, not {text:?}"))?,
                );
            }
            "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--send-to" => {
                let text = value("--send-to")?;
                let parsed = text.split_once(',').and_then(|(x, y)| {
                    Some(Vec2::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
                });
                options.send_to =
                    Some(parsed.ok_or(format!("--send-to must be X,Y in metres, not {text:?}"))?);
            }
            "--help" | "-h" => {
                println!(
                    "usage: demo [--world PATH] [--seed S] [--frames N] [--screenshot FILE] [--send-to X,Y]\n\n\
                     --send-to: where the first selected tank is sent at start (default: across the view)\n\n{HELP}"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}
