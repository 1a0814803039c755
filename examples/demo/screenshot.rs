//! `--frames N` and `--screenshot FILE`: how CI and a person check the
//! demo without watching it.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_kerb::prelude::*;

/// The run's options that systems read, and its frame count.
#[derive(Resource)]
pub struct DemoRun {
    pub frames: Option<u32>,
    pub screenshot: Option<PathBuf>,
    pub frame: u32,
    pub shot_taken: bool,
    pub send_to: Option<Vec2>,
}

/// `--frames N` and `--screenshot FILE`: run N frames, save the last one,
/// exit with status 0.
pub fn run_for_frames(
    mut commands: Commands,
    mut options: ResMut<DemoRun>,
    mut exit: MessageWriter<AppExit>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut waited: Local<u32>,
) {
    let Some(frames) = options.frames.or(options.screenshot.as_ref().map(|_| 180)) else {
        return;
    };
    // Frames count from the world's arrival: it loads in the background.
    if world.get(&assets).is_none() {
        *waited += 1;
        if *waited > 1200 {
            eprintln!("error: the world did not load");
            exit.write(AppExit::error());
        }
        return;
    }
    options.frame += 1;
    if options.frame == frames
        && let Some(path) = options.screenshot.clone()
    {
        // A file left there by an earlier run would pass for this one's
        // screenshot below, and the demo would exit before taking it.
        if let Err(error) = std::fs::remove_file(&path)
            && error.kind() != std::io::ErrorKind::NotFound
        {
            eprintln!("error: cannot replace {}: {error}", path.display());
            exit.write(AppExit::error());
            return;
        }
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        options.shot_taken = true;
    }
    if options.frame < frames {
        return;
    }
    let saved = options.screenshot.as_ref().is_none_or(|path| path.exists());
    // Give the screenshot a few frames to reach the disk, at most ten seconds' worth.
    if saved || options.frame > frames + 600 {
        if !saved {
            eprintln!("error: the screenshot was not written");
            exit.write(AppExit::error());
        } else {
            exit.write(AppExit::Success);
        }
    }
}
